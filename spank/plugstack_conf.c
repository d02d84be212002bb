/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jobscreen plugin: plugstack.conf arguments, the profiling decision, LD_PRELOAD editing. */
#include "config.h"

#include "plugstack_conf.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kvconf.h"
#include "slice.h"

int64_t js_parse_size(const char *s, int suffix)
{
    long long v;
    if ((suffix ? js_kv_size(s, 0, INT64_MAX, &v) : js_kv_int(s, 0, INT64_MAX, &v)) < 0)
        return -1;
    return v;
}

int js_parse_bool(const char *s)
{
    return js_kv_bool(s);
}

static int copy_value(char *dst, size_t size, const char *key, const char *val, char *err, size_t errlen)
{
    if (snprintf(dst, size, "%s", val) >= (int)size) {
        snprintf(err, errlen, "%s=: value longer than %zu bytes", key, size - 1);
        return -1;
    }
    return 0;
}

/* a comma-separated list: no empty element (a typo here would go unnoticed until a step runs
 * where it should not), no blank (plugstack.conf splits arguments at blanks) */
static int check_list(const char *key, const char *val, char *err, size_t errlen)
{
    if (val[0] == '\0' || js_kv_list_has_empty(val) || strpbrk(val, " \t")) {
        snprintf(err, errlen, "%s=%s: not a comma-separated list of non-empty names", key, val);
        return -1;
    }
    return 0;
}

static void conf_defaults(struct js_conf *conf)
{
    memset(conf, 0, sizeof *conf);
    conf->slice_seconds = JS_SLICE_DEFAULT_SECONDS;
    conf->default_on = 1;
    conf->spool_quota = JS_SPOOL_QUOTA_DEFAULT;
    conf->spool_files = JS_SPOOL_FILES_DEFAULT;
    conf->record_quota = JS_RECORD_QUOTA_DEFAULT;
    conf->record_files = JS_RECORD_FILES_DEFAULT;
    snprintf(conf->record_dir, sizeof conf->record_dir, "%s", JS_RECORD_DIR_DEFAULT);
#ifdef JS_COLLECTOR_DEFAULT
    snprintf(conf->collector, sizeof conf->collector, "%s", JS_COLLECTOR_DEFAULT);
#endif
    conf->fail_on_error = 0;
    snprintf(conf->nvml, sizeof conf->nvml, "%s", JS_NVML_DEFAULT);
    snprintf(conf->powercap, sizeof conf->powercap, "%s", JS_POWERCAP_DEFAULT);
}

/* One key=value of plugstack.conf into conf: 0, or -1 with the reason in err. */
static int parse_arg(struct js_conf *conf, const char *arg, char *err, size_t errlen)
{
    const char *eq = strchr(arg, '=');
    if (eq == NULL || eq == arg) {
        snprintf(err, errlen, "argument '%s': not key=value", arg);
        return -1;
    }
    size_t klen = (size_t)(eq - arg);
    char key[32];
    if (klen >= sizeof key) {
        snprintf(err, errlen, "unknown argument '%s'", arg);
        return -1;
    }
    memcpy(key, arg, klen);
    key[klen] = '\0';
    const char *val = eq + 1;
    if (strcmp(key, "profiler") == 0 || strcmp(key, "spool") == 0 || strcmp(key, "collector") == 0 ||
        strcmp(key, "record_dir") == 0) {
        if (val[0] != '/') {
            snprintf(err, errlen, "%s=%s: not an absolute path", key, val);
            return -1;
        }
        char *dst = key[0] == 'p' ? conf->profiler : key[0] == 's' ? conf->spool
                  : key[0] == 'c' ? conf->collector : conf->record_dir;
        if (copy_value(dst, PATH_MAX, key, val, err, errlen) < 0)
            return -1;
    } else if (strcmp(key, "slice") == 0) {
        long long s;
        if (js_kv_int(val, JS_SLICE_MIN_SECONDS, JS_SLICE_MAX_SECONDS, &s) < 0) {
            snprintf(err, errlen, "slice=%s: not a whole number of seconds between %d and %d", val,
                     JS_SLICE_MIN_SECONDS, JS_SLICE_MAX_SECONDS);
            return -1;
        }
        conf->slice_seconds = (int)s;
    } else if (strcmp(key, "default") == 0 || strcmp(key, "fail_on_error") == 0) {
        int b = js_parse_bool(val);
        if (b < 0) {
            snprintf(err, errlen, "%s=%s: not one of on/off, yes/no, true/false, 1/0", key, val);
            return -1;
        }
        if (key[0] == 'd')
            conf->default_on = b;
        else
            conf->fail_on_error = b;
    } else if (strcmp(key, "exclude_users") == 0) {
        if (check_list(key, val, err, errlen) < 0 ||
            copy_value(conf->exclude_users, sizeof conf->exclude_users, key, val, err, errlen) < 0)
            return -1;
    } else if (strcmp(key, "exclude_partitions") == 0) {
        if (check_list(key, val, err, errlen) < 0 ||
            copy_value(conf->exclude_partitions, sizeof conf->exclude_partitions, key, val, err, errlen) < 0)
            return -1;
    } else if (strcmp(key, "exclude_exe") == 0) {
        if (check_list(key, val, err, errlen) < 0 ||
            copy_value(conf->exclude_exe, sizeof conf->exclude_exe, key, val, err, errlen) < 0)
            return -1;
    } else if (strcmp(key, "spool_quota") == 0 || strcmp(key, "spool_files") == 0 ||
               strcmp(key, "record_quota") == 0 || strcmp(key, "record_files") == 0) {
        int bytes = strstr(key, "_quota") != NULL;
        int64_t v = js_parse_size(val, bytes);
        if (v < 0) {
            snprintf(err, errlen, "%s=%s: not a whole number%s (0: no cap)", key, val,
                     bytes ? " of bytes, with an optional K, M, G or T" : "");
            return -1;
        }
        int64_t *dst = key[0] == 's' ? (bytes ? &conf->spool_quota : &conf->spool_files)
                                     : (bytes ? &conf->record_quota : &conf->record_files);
        *dst = v;
    } else if (strcmp(key, "nvml") == 0 || strcmp(key, "powercap") == 0) {
        /* none, an absolute path, or (nvml) a library name dlopen looks up */
        int lib = key[0] == 'n';
        if (val[0] == '\0' || (strcmp(val, "none") != 0 && val[0] != '/' && (!lib || strchr(val, '/')))) {
            snprintf(err, errlen, "%s=%s: not %s or none", key, val,
                     lib ? "an absolute path, a library name" : "an absolute path");
            return -1;
        }
        if (copy_value(lib ? conf->nvml : conf->powercap, PATH_MAX, key, val, err, errlen) < 0)
            return -1;
    } else {
        snprintf(err, errlen, "unknown argument '%s'", arg);
        return -1;
    }
    return 0;
}

int js_conf_parse(struct js_conf *conf, int ac, char **av, char *err, size_t errlen)
{
    conf_defaults(conf);
    for (int i = 0; i < ac; i++)
        if (parse_arg(conf, av[i], err, errlen) < 0)
            return -1;
    if (conf->spool[0] == '\0') {
        snprintf(err, errlen, "spool= is not set");
        return -1;
    }
    return 0;
}

static int expand_node(char *path, size_t size, const char *key, const char *node, char *err, size_t errlen)
{
    char out[PATH_MAX];
    size_t o = 0, nl = strlen(node);
    for (const char *p = path; *p; p++) {
        if (p[0] == '%' && p[1] == 'n') {
            if (o + nl >= sizeof out)
                goto long_path;
            memcpy(out + o, node, nl);
            o += nl;
            p++;
        } else {
            if (o + 1 >= sizeof out)
                goto long_path;
            out[o++] = *p;
        }
    }
    out[o] = '\0';
    if (o >= size)
        goto long_path;
    memcpy(path, out, o + 1);
    return 0;
long_path:
    snprintf(err, errlen, "%s=%s: longer than %zu bytes with the node name %s", key, path, size - 1, node);
    return -1;
}

int js_conf_expand_node(struct js_conf *conf, const char *node, char *err, size_t errlen)
{
    if (expand_node(conf->spool, sizeof conf->spool, "spool", node, err, errlen) < 0 ||
        expand_node(conf->record_dir, sizeof conf->record_dir, "record_dir", node, err, errlen) < 0 ||
        expand_node(conf->nvml, sizeof conf->nvml, "nvml", node, err, errlen) < 0 ||
        expand_node(conf->powercap, sizeof conf->powercap, "powercap", node, err, errlen) < 0)
        return -1;
    return 0;
}

/* Call fn on each element of a list (common/kvconf.h) until it returns nonzero. */
static int list_any(const char *list, int (*fn)(const char *elem, const void *arg), const void *arg)
{
    char elem[JS_LIST_MAX];
    const char *cursor = list, *p;
    size_t n;
    while ((p = js_kv_list_next(&cursor, &n))) {
        if (n < sizeof elem) {
            memcpy(elem, p, n);
            elem[n] = '\0';
            if (fn(elem, arg))
                return 1;
        }
    }
    return 0;
}

static int equal(const char *elem, const void *arg)
{
    return strcmp(elem, (const char *)arg) == 0;
}

int js_list_has(const char *list, const char *item)
{
    return item != NULL && item[0] != '\0' && list_any(list, equal, item);
}

static int exe_match(const char *pattern, const void *arg)
{
    const char *exe = arg, *base = strrchr(exe, '/');
    return fnmatch(pattern, exe, 0) == 0 || (base && fnmatch(pattern, base + 1, 0) == 0);
}

int js_list_match_exe(const char *list, const char *exe)
{
    return exe != NULL && exe[0] != '\0' && list_any(list, exe_match, exe);
}

const char *js_decide(const struct js_decision_in *in)
{
    const struct js_conf *c = in->conf;
    if (in->special_step)
        return "special step";
    if (in->opt_no_profile)
        return "no-profile option";
    int env = in->env_no_profile && in->env_no_profile[0] ? js_parse_bool(in->env_no_profile) : -1;
    if (env == 1)
        return "JOBSCREEN_NO_PROFILE";
    /* JOBSCREEN_NO_PROFILE=0 asks for profiling where the site's default is off */
    if (!c->default_on && env != 0)
        return "default off";
    char uid[24];
    snprintf(uid, sizeof uid, "%u", (unsigned)in->uid);
    if (js_list_has(c->exclude_users, in->user) || js_list_has(c->exclude_users, uid))
        return "excluded user";
    if (js_list_has(c->exclude_partitions, in->partition))
        return "excluded partition";
    if (js_list_match_exe(c->exclude_exe, in->exe))
        return "excluded executable";
    if (c->profiler[0] == '\0' || !in->profiler_usable)
        return "profiler missing";
    return "on";
}

/* --- LD_PRELOAD ------------------------------------------------------------------------ */

#define PRELOAD_SEP ": \t"

int js_preload_has(const char *ld, const char *lib)
{
    size_t ln = strlen(lib);
    const char *p = ld;
    while (p && *p) {
        p += strspn(p, PRELOAD_SEP);
        size_t n = strcspn(p, PRELOAD_SEP);
        if (n == ln && n > 0 && memcmp(p, lib, n) == 0)
            return 1;
        p += n;
    }
    return 0;
}

int js_preload_add(const char *ld, const char *lib, char *out, size_t size)
{
    int n;
    if (ld == NULL || ld[0] == '\0')
        n = snprintf(out, size, "%s", lib);
    else if (js_preload_has(ld, lib))
        n = snprintf(out, size, "%s", ld);
    else
        n = snprintf(out, size, "%s:%s", ld, lib);
    return (n < 0 || (size_t)n >= size) ? -1 : 0;
}

int js_preload_remove(const char *ld, const char *lib, char *out, size_t size)
{
    size_t ln = strlen(lib), o = 0;
    const char *p = ld;
    if (size == 0)
        return -1;
    out[0] = '\0';
    while (p && *p) {
        p += strspn(p, PRELOAD_SEP);
        size_t n = strcspn(p, PRELOAD_SEP);
        if (n > 0 && !(n == ln && memcmp(p, lib, n) == 0)) {
            if (o + (o ? 1 : 0) + n + 1 > size)
                return -1;
            if (o)
                out[o++] = ':';
            memcpy(out + o, p, n);
            o += n;
            out[o] = '\0';
        }
        p += n;
    }
    return 0;
}

/* --- the profiler library ------------------------------------------------------------ */

/* the ELF identification and header fields that matter, of a 32- or 64-bit object */
struct elf_info {
    unsigned char cls, data;
    uint16_t type, machine;
    uint64_t phoff;
    uint16_t phentsize, phnum;
};

static uint16_t rd16(const unsigned char *p, int big) { return big ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]); }
static uint32_t rd32(const unsigned char *p, int big)
{
    return big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
               : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}
static uint64_t rd64(const unsigned char *p, int big)
{
    return big ? (uint64_t)rd32(p, 1) << 32 | rd32(p + 4, 1) : (uint64_t)rd32(p + 4, 0) << 32 | rd32(p, 0);
}

/* 0 with the header of the ELF object open at fd, -1 when it is none */
static int elf_read(int fd, struct elf_info *e)
{
    unsigned char h[64];
    if (pread(fd, h, sizeof h, 0) < 52 || memcmp(h, ELFMAG, SELFMAG) != 0)
        return -1;
    e->cls = h[EI_CLASS];
    e->data = h[EI_DATA];
    int big = e->data == ELFDATA2MSB;
    e->type = rd16(h + 16, big);
    e->machine = rd16(h + 18, big);
    if (e->cls == ELFCLASS64) {
        e->phoff = rd64(h + 32, big);
        e->phentsize = rd16(h + 54, big);
        e->phnum = rd16(h + 56, big);
    } else if (e->cls == ELFCLASS32) {
        e->phoff = rd32(h + 28, big);
        e->phentsize = rd16(h + 42, big);
        e->phnum = rd16(h + 44, big);
    } else {
        return -1;
    }
    return 0;
}

/* whether the object has a program interpreter (PT_INTERP): an executable, PIE or not */
static int elf_has_interp(int fd, const struct elf_info *e)
{
    int big = e->data == ELFDATA2MSB;
    for (uint16_t i = 0; i < e->phnum && i < 256; i++) {
        unsigned char ph[4];
        if (pread(fd, ph, sizeof ph, (off_t)(e->phoff + (uint64_t)i * e->phentsize)) != (ssize_t)sizeof ph)
            return 0;
        if (rd32(ph, big) == PT_INTERP)
            return 1;
    }
    return 0;
}

int js_profiler_check(const char *path, char *why, size_t whysize)
{
    struct stat sb;
    if (stat(path, &sb) < 0) {
        snprintf(why, whysize, "%s", strerror(errno));
        return -1;
    }
    if (!S_ISREG(sb.st_mode) || !(sb.st_mode & S_IROTH)) {
        snprintf(why, whysize, "not a regular file readable by all");
        return -1;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC), self = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    struct elf_info e, me;
    int rc = -1;
    if (fd < 0)
        snprintf(why, whysize, "%s", strerror(errno));
    else if (elf_read(fd, &e) < 0)
        snprintf(why, whysize, "not an ELF file");
    else if (e.type != ET_DYN || elf_has_interp(fd, &e))
        snprintf(why, whysize, "an ELF %s, not a shared library", e.type == ET_EXEC || e.type == ET_DYN ? "executable" : "object");
    else if (self < 0 || elf_read(self, &me) < 0)
        rc = 0; /* nothing to compare with: ld.so will judge */
    else if (e.cls != me.cls)
        snprintf(why, whysize, "a %d-bit ELF library, the tasks are %d-bit", e.cls == ELFCLASS64 ? 64 : 32,
                 me.cls == ELFCLASS64 ? 64 : 32);
    else if (e.data != me.data || e.machine != me.machine)
        snprintf(why, whysize, "an ELF library for another machine (e_machine %u, this one %u)", e.machine, me.machine);
    else
        rc = 0;
    if (fd >= 0)
        close(fd);
    if (self >= 0)
        close(self);
    return rc;
}

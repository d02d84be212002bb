/*
 * Writing the profile: JSON by hand (no allocation, no stdio), into `.<name>.tmp` in the
 * profile directory, published with link() so that no profile is ever overwritten.
 * Members in the order of JS_PROFILE_FIELDS (common/profile_format.h).
 */
#include "config.h"

#include "js.h"
#include "jsonw.h"
#include "profile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#define JS_MOUNTINFO_BYTES (1u << 20)
#define JS_MAX_MOUNTS 8192

int32_t js_mpi_rank = -1, js_mpi_size = -1;
uint64_t js_coll[JS_COLL_COUNT][3];

static struct js_out js_o; /* 64 KiB buffer: static, not on the program's stack */

struct mount {
    const char *dir, *fstype;
    size_t len;
};

/* Undo the octal escapes (\040 etc.) of mountinfo in place. */
static void unescape(char *s)
{
    char *d = s;
    while (*s) {
        if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
            *d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
            s += 4;
        } else {
            *d++ = *s++;
        }
    }
    *d = '\0';
}

/* Read a whole small file with the real functions; returns bytes, -1 on error. */
static ssize_t slurp(const char *path, char *buf, size_t cap)
{
    int fd = js_real_open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t n = 0;
    while (n < cap - 1) {
        ssize_t r = js_real_read(fd, buf + n, cap - 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    js_real_close(fd);
    buf[n] = '\0';
    return (ssize_t)n;
}

static size_t parse_mounts(char *buf, struct mount *m, size_t max)
{
    size_t n = 0;
    char *line = buf;
    while (line && *line && n < max) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        /* id parent maj:min root mountpoint options [optional...] - fstype source superopts */
        char *f[6] = {0};
        char *p = line;
        int k = 0;
        while (k < 5 && p) {
            f[k++] = p;
            p = strchr(p, ' ');
            if (p)
                *p++ = '\0';
        }
        char *dash = p ? strstr(p, " - ") : NULL;
        if (p && strncmp(p, "- ", 2) == 0)
            dash = p - 1;
        if (k == 5 && dash) {
            char *fs = dash + 3;
            char *sp = strchr(fs, ' ');
            if (sp)
                *sp = '\0';
            unescape(f[4]);
            m[n].dir = f[4];
            m[n].len = strlen(f[4]);
            m[n].fstype = fs;
            n++;
        }
        line = nl ? nl + 1 : NULL;
    }
    return n;
}

static const struct mount *mount_of(const char *path, const struct mount *m, size_t n)
{
    const struct mount *best = NULL;
    for (size_t i = 0; i < n; i++) {
        size_t l = m[i].len;
        int match = (l == 1 && m[i].dir[0] == '/') ||
                    (strncmp(path, m[i].dir, l) == 0 && (path[l] == '/' || path[l] == '\0'));
        if (match && (best == NULL || l >= best->len)) /* later mounts hide earlier ones */
            best = &m[i];
    }
    return best;
}

static void comma(struct js_out *o) { js_out_raw(o, ",", 1); }

static void kv_u(struct js_out *o, const char *k, uint64_t v)
{
    comma(o);
    js_out_key(o, k);
    js_out_u64(o, v);
}

static void kv_i(struct js_out *o, const char *k, int64_t v)
{
    comma(o);
    js_out_key(o, k);
    js_out_i64(o, v);
}

static void kv_s(struct js_out *o, const char *k, const char *v, size_t max)
{
    comma(o);
    js_out_key(o, k);
    js_out_str(o, v, max);
}

static const char *mode_str(int r, int w)
{
    return r && w ? "rw" : r ? "r" : w ? "w" : "none";
}

static const char *const js_layer_names[] = {"posix", "stdio", "mpiio"};

static void write_files(struct js_out *o, const struct mount *mounts, size_t nm)
{
    comma(o);
    js_out_key(o, "files");
    js_out_raw(o, "[", 1);
    int first = 1;
    unsigned n = __atomic_load_n(&js_nfiles, __ATOMIC_ACQUIRE);
    for (unsigned i = 0; i < n; i++) {
        const struct js_file *f = &js_file_pool[i];
        uint64_t rc = __atomic_load_n(&f->read_calls, __ATOMIC_RELAXED);
        uint64_t wc = __atomic_load_n(&f->write_calls, __ATOMIC_RELAXED);
        uint64_t lr = __atomic_load_n(&f->lower_read_bytes, __ATOMIC_RELAXED);
        uint64_t lw = __atomic_load_n(&f->lower_write_bytes, __ATOMIC_RELAXED);
        if (f->opens == 0 && rc == 0 && wc == 0 && lr == 0 && lw == 0)
            continue; /* inherited over fork and untouched by this image */
        const struct mount *m = mount_of(f->path, mounts, nm);
        if (!first)
            comma(o);
        first = 0;
        js_out_raw(o, "{", 1);
        js_out_key(o, "path");
        js_out_str(o, f->path, JS_PROFILE_MAX_PATH);
        kv_s(o, "layer", js_layer_names[f->layer], 16);
        kv_u(o, "dev", f->dev);
        kv_u(o, "ino", f->ino);
        kv_s(o, "mount", m ? m->dir : "", JS_PROFILE_MAX_PATH);
        kv_s(o, "fstype", m ? m->fstype : "", 256);
        kv_s(o, "open_mode", mode_str(f->open_mode & JS_MODE_R, f->open_mode & JS_MODE_W), 4);
        kv_s(o, "used_mode", mode_str(rc || lr, wc || lw), 4);
        kv_u(o, "opens", f->opens);
        kv_u(o, "read_calls", rc);
        kv_u(o, "read_bytes", __atomic_load_n(&f->read_bytes, __ATOMIC_RELAXED));
        kv_u(o, "write_calls", wc);
        kv_u(o, "write_bytes", __atomic_load_n(&f->write_bytes, __ATOMIC_RELAXED));
        kv_u(o, "lower_read_bytes", lr);
        kv_u(o, "lower_write_bytes", lw);
        kv_u(o, "first_open_ns", f->first_open_ns);
        uint64_t lc = __atomic_load_n(&f->last_close_ns, __ATOMIC_RELAXED);
        kv_u(o, "last_close_ns", (f->open_count > 0 || lc == 0) ? js_g.end_ns : lc);
        js_out_raw(o, "}", 1);
    }
    js_out_raw(o, "]", 1);
    kv_u(o, "files_dropped", js_files_dropped);
}

static void write_body(struct js_out *o, char *scratch, size_t scratch_cap)
{
    char host[256] = "", exe[JS_PROFILE_MAX_STRING] = "";
    gethostname(host, sizeof host - 1);
    ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[el > 0 ? el : 0] = '\0';
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    getrusage(RUSAGE_SELF, &ru);

    js_out_raw(o, "{", 1);
    js_out_key(o, "format");
    js_out_str(o, JS_PROFILE_FORMAT_NAME, 64);
    kv_u(o, "version", JS_PROFILE_VERSION);
    kv_s(o, "cluster", js_g.cluster, sizeof js_g.cluster);
    kv_u(o, "job_id", js_g.job_id);
    kv_s(o, "step", js_g.step, sizeof js_g.step);
    kv_s(o, "node", js_g.node, sizeof js_g.node);
    kv_i(o, "task_id", js_g.task_id);
    kv_s(o, "hostname", host, sizeof host);
    kv_u(o, "pid", (uint64_t)getpid());
    kv_u(o, "ppid", (uint64_t)getppid());
    kv_u(o, "uid", (uint64_t)getuid());
    kv_s(o, "origin", js_g.origin, 16);
    kv_s(o, "end", js_g.end, 16);
    kv_i(o, "exit_code", js_g.exit_code);
    kv_i(o, "signal", 0);
    kv_s(o, "exe", exe, sizeof exe);
    /* the command line, NULs turned into spaces */
    ssize_t al = slurp("/proc/self/cmdline", scratch, JS_PROFILE_MAX_STRING + 1);
    if (al < 0)
        al = 0;
    while (al > 0 && scratch[al - 1] == '\0')
        al--;
    for (ssize_t i = 0; i < al; i++)
        if (scratch[i] == '\0')
            scratch[i] = ' ';
    scratch[al] = '\0';
    kv_s(o, "args", scratch, JS_PROFILE_MAX_STRING);
    kv_u(o, "slice_seconds", (uint64_t)js_g.slice_seconds);
    kv_u(o, "start_ns", js_g.start_ns);
    kv_u(o, "end_ns", js_g.end_ns);
    kv_i(o, "mpi_rank", js_mpi_rank);
    kv_i(o, "mpi_size", js_mpi_size);
    kv_u(o, "threads_peak", js_g.threads_peak);
    kv_u(o, "threads_seen", js_g.threads_seen);
    uint64_t wall = js_g.end_ns > js_g.start_ns ? js_g.end_ns - js_g.start_ns : 0;
    kv_u(o, "wall_ns", wall);
    kv_u(o, "cpu_user_ns", (uint64_t)ru.ru_utime.tv_sec * 1000000000ULL + (uint64_t)ru.ru_utime.tv_usec * 1000ULL);
    kv_u(o, "cpu_sys_ns", (uint64_t)ru.ru_stime.tv_sec * 1000000000ULL + (uint64_t)ru.ru_stime.tv_usec * 1000ULL);
    kv_u(o, "max_rss_kib", (uint64_t)ru.ru_maxrss);

    const uint64_t *t = js_g.totals;
    uint64_t busy = t[JS_M_POSIX_NS] + t[JS_M_STDIO_NS] + t[JS_M_MPIIO_NS] + t[JS_M_MPI_P2P_NS] + t[JS_M_MPI_COLL_NS];
    comma(o);
    js_out_key(o, "runtime");
    js_out_raw(o, "{", 1);
    js_out_key(o, "io_posix_ns");
    js_out_u64(o, t[JS_M_POSIX_NS]);
    kv_u(o, "io_stdio_ns", t[JS_M_STDIO_NS]);
    kv_u(o, "io_mpiio_ns", t[JS_M_MPIIO_NS]);
    kv_u(o, "mpi_p2p_ns", t[JS_M_MPI_P2P_NS]);
    kv_u(o, "mpi_coll_ns", t[JS_M_MPI_COLL_NS]);
    kv_u(o, "compute_ns", wall > busy ? wall - busy : 0);
    js_out_raw(o, "}", 1);

    comma(o);
    js_out_key(o, "totals");
    js_out_raw(o, "{", 1);
    for (int m = 0; m < JS_M_COUNT; m++) {
        if (m)
            comma(o);
        js_out_key(o, js_profile_metrics[m].name);
        js_out_u64(o, t[m]);
    }
    js_out_raw(o, "}", 1);

    comma(o);
    js_out_key(o, "mpi_collectives");
    js_out_raw(o, "{", 1);
    int first = 1;
    for (int k = 0; k < JS_COLL_COUNT; k++) {
        uint64_t calls = __atomic_load_n(&js_coll[k][0], __ATOMIC_RELAXED);
        if (calls == 0)
            continue;
        if (!first)
            comma(o);
        first = 0;
        js_out_key(o, js_profile_coll_kinds[k]);
        js_out_raw(o, "{", 1);
        js_out_key(o, "calls");
        js_out_u64(o, calls);
        kv_u(o, "bytes", __atomic_load_n(&js_coll[k][1], __ATOMIC_RELAXED));
        kv_u(o, "ns", js_ticks_to_ns(__atomic_load_n(&js_coll[k][2], __ATOMIC_RELAXED)));
        js_out_raw(o, "}", 1);
    }
    js_out_raw(o, "}", 1);

    comma(o);
    js_out_key(o, "slice_metrics");
    js_out_raw(o, "[", 1);
    for (int m = 0; m < JS_M_COUNT; m++) {
        if (m)
            comma(o);
        js_out_str(o, js_profile_metrics[m].name, 64);
    }
    js_out_raw(o, "]", 1);

    comma(o);
    js_out_key(o, "slices");
    js_out_raw(o, "[", 1);
    struct js_slices_iter it;
    int64_t s;
    uint64_t vec[JS_M_COUNT];
    js_slices_iter_init(&it, &js_g.slices);
    first = 1;
    while (js_slices_next(&it, &s, vec)) {
        if (!first)
            comma(o);
        first = 0;
        js_out_raw(o, "[", 1);
        js_out_i64(o, s);
        for (int m = 0; m < JS_M_COUNT; m++) {
            comma(o);
            js_out_u64(o, vec[m]);
        }
        js_out_raw(o, "]", 1);
    }
    js_out_raw(o, "]", 1);
    comma(o);
    js_out_key(o, "slices_truncated");
    js_out_lit(o, js_g.slices.truncated ? "true" : "false");

    /* mounts parsed into the scratch area; the table of them after the text */
    size_t nm = 0;
    struct mount *mounts = (struct mount *)(void *)(scratch + scratch_cap - sizeof(struct mount) * JS_MAX_MOUNTS);
    size_t text_cap = scratch_cap - sizeof(struct mount) * JS_MAX_MOUNTS;
    if (js_files_in_use() > 0 && slurp("/proc/self/mountinfo", scratch, text_cap) > 0)
        nm = parse_mounts(scratch, mounts, JS_MAX_MOUNTS); /* only when there is a file to place */
    write_files(o, mounts, nm);
    kv_s(o, "missing", js_g.slices.truncated ? "slices after the 1 MiB slice budget" : "", 128);
    js_out_raw(o, "}\n", 2);
}

/* Append the decimal of v to p. */
static char *put_u(char *p, uint64_t v)
{
    char b[24];
    int i = 0;
    do
        b[i++] = (char)('0' + v % 10);
    while ((v /= 10) && i < 23);
    while (i)
        *p++ = b[--i];
    return p;
}

int js_profile_write(void)
{
    char name[400], tmp[4600], fin[4600];
    size_t dl = js_g.dir_len;
    /* <step>.<node>.<pid> */
    char *p = name;
    size_t sl = strnlen(js_g.step, 63), nl = strnlen(js_g.node, 255);
    memcpy(p, js_g.step, sl);
    p += sl;
    *p++ = '.';
    memcpy(p, js_g.node, nl);
    p += nl;
    *p++ = '.';
    p = put_u(p, (uint64_t)getpid());
    *p = '\0';
    size_t base = (size_t)(p - name);

    memcpy(tmp, js_g.dir, dl);
    tmp[dl] = '/';
    tmp[dl + 1] = '.';
    memcpy(tmp + dl + 2, name, base);
    memcpy(tmp + dl + 2 + base, ".json.tmp", 10);

    size_t scratch_cap = JS_MOUNTINFO_BYTES + sizeof(struct mount) * JS_MAX_MOUNTS;
    char *scratch = mmap(NULL, scratch_cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (scratch == MAP_FAILED) {
        js_note_error("no memory to write the profile", errno);
        return -1;
    }
    int fd = js_real_open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        js_note_error("cannot create the profile in JOBSCREEN_PROFILE_DIR", errno);
        munmap(scratch, scratch_cap);
        return -1;
    }
    js_out_init(&js_o, fd, js_real_write, JS_PROFILE_MAX_BYTES);
    write_body(&js_o, scratch, scratch_cap);
    js_out_flush(&js_o);
    munmap(scratch, scratch_cap);
    int werr = js_o.err;
    if (js_real_close(fd) != 0 && werr == 0)
        werr = errno;
    if (werr) {
        js_real_unlink(tmp);
        js_note_error("cannot write the profile", werr);
        return -1;
    }
    /* publish without ever overwriting: <name>.json, then <name>-1.json, ... */
    for (unsigned n = 0; n < 1000; n++) {
        char *q = fin;
        memcpy(q, js_g.dir, dl);
        q += dl;
        *q++ = '/';
        memcpy(q, name, base);
        q += base;
        if (n) {
            *q++ = '-';
            q = put_u(q, n);
        }
        memcpy(q, ".json", 6);
        if (js_real_link(tmp, fin) == 0) {
            js_real_unlink(tmp);
            memcpy(js_g.published, fin, strlen(fin) + 1);
            return 0;
        }
        if (errno == EEXIST)
            continue;
        /* no hard links here: rename, which replaces an existing profile of the same name */
        if (access(fin, F_OK) == 0)
            continue;
        if (js_real_rename(tmp, fin) == 0) {
            memcpy(js_g.published, fin, strlen(fin) + 1);
            return 0;
        }
        break;
    }
    int e = errno;
    js_real_unlink(tmp);
    js_note_error("cannot publish the profile", e);
    return -1;
}

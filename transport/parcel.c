/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Parcels: writer and strict reader (parcel.h, docs/transport.md). */
#include "config.h"

#include "parcel.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile_format.h"
#include "record_format.h"

_Static_assert(JT_FILE_MAX_BYTES == JS_PROFILE_MAX_BYTES && JS_RECORD_MAX_FILE_BYTES <= JT_FILE_MAX_BYTES,
               "JT_FILE_MAX_BYTES is the largest file of a parcel");
_Static_assert(JT_PARCEL_OVERHEAD_MAX >= sizeof(JT_PARCEL_MAGIC " 1 job.4294967295\n") + JT_NAME_MAX + 24 + sizeof("end\n"),
               "JT_PARCEL_OVERHEAD_MAX holds a one-file parcel's framing");

#define LIVE_PREFIX ".live."
#define PROFILES_PREFIX JS_PROFILES_DIR_NAME "/"

static int fail(char *reason, size_t rsize, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *reason, size_t rsize, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, rsize, fmt, ap);
    va_end(ap);
    return -1;
}

/* A node name: letters, digits, '_', '-', and '.' neither first, last nor doubled. */
static int node_ok(const char *s, size_t len)
{
    if (len == 0 || len >= JT_NODE_MAX || s[0] == '.' || s[len - 1] == '.')
        return 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '.' && s[i + 1] == '.')
            return 0;
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-' || c == '.'))
            return 0;
    }
    return 1;
}

/* "<step>.<node>" + suffix: step is the text before the first '.', node what lies between it
 * and suffix. 0, or -1. */
static int step_node(const char *s, const char *suffix_start, struct jt_name *out)
{
    const char *dot = strchr(s, '.');
    if (!dot || dot >= suffix_start || (size_t)(dot - s) >= sizeof out->step)
        return -1;
    memcpy(out->step, s, (size_t)(dot - s));
    out->step[dot - s] = '\0';
    uint32_t id;
    if (js_step_parse(out->step, &id) < 0)
        return -1;
    size_t nlen = (size_t)(suffix_start - (dot + 1));
    if (!node_ok(dot + 1, nlen))
        return -1;
    memcpy(out->node, dot + 1, nlen);
    out->node[nlen] = '\0';
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t l = strlen(s), ls = strlen(suffix);
    return l >= ls && strcmp(s + l - ls, suffix) == 0;
}

int jt_profile_name_parse(const char *base, struct jt_name *out)
{
    memset(out, 0, sizeof *out);
    if (strlen(base) >= JT_NAME_MAX - strlen(PROFILES_PREFIX) || !ends_with(base, JS_RECORD_SUFFIX) || strchr(base, '/'))
        return -1;
    const char *end = base + strlen(base) - strlen(JS_RECORD_SUFFIX);
    if (strncmp(base, LIVE_PREFIX, strlen(LIVE_PREFIX)) == 0) {
        out->kind = JT_LIVE;
        return step_node(base + strlen(LIVE_PREFIX), end, out);
    }
    if (base[0] == '.')
        return -1;
    /* ".b<N>" before ".json": digits, no leading zero */
    const char *b = end;
    while (b > base && b[-1] >= '0' && b[-1] <= '9')
        b--;
    if (b == end || b - base < 2 || b[-1] != 'b' || b[-2] != '.' || (b[0] == '0' && end - b > 1) || end - b > 9)
        return -1;
    out->kind = JT_BUNDLE;
    out->bundle = strtoul(b, NULL, 10);
    return step_node(base, b - 2, out);
}

int jt_name_parse(const char *name, struct jt_name *out, char *reason, size_t rsize)
{
    memset(out, 0, sizeof *out);
    size_t len = strlen(name);
    if (len == 0)
        return fail(reason, rsize, "empty name");
    if (len >= JT_NAME_MAX)
        return fail(reason, rsize, "name longer than %d bytes", JT_NAME_MAX - 1);
    if (strstr(name, ".."))
        return fail(reason, rsize, "name \"%s\" holds \"..\"", name);
    if (strcmp(name, JS_JOB_RECORD_NAME) == 0) {
        out->kind = JT_JOB_RECORD;
        return 0;
    }
    if (strncmp(name, PROFILES_PREFIX, strlen(PROFILES_PREFIX)) == 0) {
        const char *base = name + strlen(PROFILES_PREFIX);
        if (strchr(base, '/'))
            return fail(reason, rsize, "name \"%s\" has a '/' other than that of profiles/", name);
        if (base[0] == '.' && strncmp(base, LIVE_PREFIX, strlen(LIVE_PREFIX)) != 0)
            return fail(reason, rsize, "name \"%s\" starts with '.' but not with .live.", name);
        if (jt_profile_name_parse(base, out) < 0)
            return fail(reason, rsize, "name \"%s\" is neither profiles/<step>.<node>.b<N>.json nor profiles/.live.<step>.<node>.json", name);
        return 0;
    }
    if (strchr(name, '/'))
        return fail(reason, rsize, "name \"%s\" has a '/' other than that of profiles/", name);
    if (name[0] == '.')
        return fail(reason, rsize, "name \"%s\" starts with '.'", name);
    if (strncmp(name, JS_STEP_RECORD_PREFIX, strlen(JS_STEP_RECORD_PREFIX)) == 0 && ends_with(name, JS_RECORD_SUFFIX) &&
        len > strlen(JS_STEP_RECORD_PREFIX) + strlen(JS_RECORD_SUFFIX)) {
        out->kind = JT_STEP_RECORD;
        if (step_node(name + strlen(JS_STEP_RECORD_PREFIX), name + len - strlen(JS_RECORD_SUFFIX), out) == 0)
            return 0;
    }
    return fail(reason, rsize, "name \"%s\" is not job.json, step.<step>.<node>.json or profiles/...", name);
}

long long jt_kind_max_bytes(enum jt_kind kind)
{
    return kind == JT_JOB_RECORD || kind == JT_STEP_RECORD ? JS_RECORD_MAX_FILE_BYTES : JS_PROFILE_MAX_BYTES;
}

/* --- writer ------------------------------------------------------------------------------- */

void jt_buf_free(struct jt_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

static int put(struct jt_buf *b, const void *data, size_t len)
{
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + len)
            cap *= 2;
        char *p = realloc(b->data, cap);
        if (!p)
            return -1;
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    return 0;
}

int jt_parcel_begin(struct jt_buf *b, uint32_t job_id)
{
    char line[64];
    int n = snprintf(line, sizeof line, JT_PARCEL_MAGIC " %d " JS_JOB_DIR_PREFIX "%" PRIu32 "\n", JT_PARCEL_VERSION, job_id);
    b->len = 0;
    return job_id == 0 ? -1 : put(b, line, (size_t)n);
}

size_t jt_parcel_entry_size(const char *name, size_t len)
{
    return strlen(name) + 2 + (size_t)snprintf(NULL, 0, "%zu", len) + len;
}

int jt_parcel_add(struct jt_buf *b, const char *name, const void *data, size_t len)
{
    struct jt_name n;
    char reason[JT_REASON_MAX], line[JT_NAME_MAX + 32];
    if (jt_name_parse(name, &n, reason, sizeof reason) < 0 || (long long)len > jt_kind_max_bytes(n.kind))
        return -1;
    int l = snprintf(line, sizeof line, "%s %zu\n", name, len);
    return put(b, line, (size_t)l) < 0 || put(b, data, len) < 0 ? -1 : 0;
}

int jt_parcel_end(struct jt_buf *b)
{
    return put(b, "end\n", 4);
}

/* --- reader ------------------------------------------------------------------------------- */

void jt_parcel_free(struct jt_parcel *p)
{
    free(p->files);
    memset(p, 0, sizeof *p);
}

/* The line at body[*pos] (without '\n', at most max bytes) into line; advances *pos. */
static int take_line(const char *body, size_t len, size_t *pos, char *line, size_t max)
{
    const char *nl = memchr(body + *pos, '\n', len - *pos < max ? len - *pos : max);
    if (!nl)
        return -1;
    size_t l = (size_t)(nl - (body + *pos));
    if (memchr(body + *pos, '\0', l))
        return -1;
    memcpy(line, body + *pos, l);
    line[l] = '\0';
    *pos += l + 1;
    return 0;
}

/* A decimal without sign or leading zero, at most max. */
static int parse_size(const char *s, long long max, size_t *out)
{
    if (!*s || (s[0] == '0' && s[1]) || strlen(s) > 12)
        return -1;
    for (const char *c = s; *c; c++)
        if (*c < '0' || *c > '9')
            return -1;
    long long v = strtoll(s, NULL, 10);
    if (v > max)
        return -1;
    *out = (size_t)v;
    return 0;
}

/* "jobscreen-parcel 1 job.<id>": the id into *job_id. 0, or -1 with the reason. */
static int parse_header(const char *line, uint32_t *job_id, char *reason, size_t rsize)
{
    char magic[32], job[32], extra;
    int version;
    if (sscanf(line, "%31s %d %31s%c", magic, &version, job, &extra) != 3 || strcmp(magic, JT_PARCEL_MAGIC) != 0)
        return fail(reason, rsize, "header is not \"" JT_PARCEL_MAGIC " <version> job.<id>\"");
    if (version != JT_PARCEL_VERSION)
        return fail(reason, rsize, "parcel version %d (this reader knows version %d)", version, JT_PARCEL_VERSION);
    char expect[64];
    size_t id;
    if (strncmp(job, JS_JOB_DIR_PREFIX, strlen(JS_JOB_DIR_PREFIX)) != 0 ||
        parse_size(job + strlen(JS_JOB_DIR_PREFIX), UINT32_MAX, &id) < 0 || id == 0 ||
        (snprintf(expect, sizeof expect, "%s %d %s", JT_PARCEL_MAGIC, version, job), strcmp(expect, line) != 0))
        return fail(reason, rsize, "header: \"%s\" is not job.<id> with an id from 1 to %u", job, UINT32_MAX);
    *job_id = (uint32_t)id;
    return 0;
}

/* One parcel at the start of body: with used, it may be followed by more (*used: its length);
 * without, "end\n" must end the body. */
static int parse_one(const char *body, size_t len, size_t *used, struct jt_parcel *p, char *reason, size_t rsize)
{
    memset(p, 0, sizeof *p);
    char line[JT_NAME_MAX + 64];
    size_t pos = 0;
    if ((long long)len > JT_PARCEL_MAX_BYTES)
        return fail(reason, rsize, "parcel larger than %lld bytes", JT_PARCEL_MAX_BYTES);
    if (take_line(body, len, &pos, line, sizeof line - 1) < 0)
        return fail(reason, rsize, "no header line");
    if (parse_header(line, &p->job_id, reason, rsize) < 0)
        return -1;
    size_t cap = 0;
    const struct jt_name *pinned = NULL; /* the step-node every file of the parcel belongs to */
    for (;;) {
        size_t at = pos, k = p->nfiles + 1; /* the entry's number, for reasons (before any free) */
        if (take_line(body, len, &pos, line, sizeof line - 1) < 0) {
            jt_parcel_free(p);
            return fail(reason, rsize, "entry %zu (byte %zu): no complete header line (truncated, or a name too long)", k, at);
        }
        if (strcmp(line, "end") == 0)
            break;
        char *sp = strrchr(line, ' ');
        struct jt_file f;
        size_t sz;
        if (!sp) {
            jt_parcel_free(p);
            return fail(reason, rsize, "entry %zu: header \"%.64s\" is not \"<name> <size>\"", k, line);
        }
        *sp = '\0';
        if (jt_name_parse(line, &f.n, reason, rsize) < 0) {
            char r[JT_REASON_MAX];
            snprintf(r, sizeof r, "%s", reason);
            jt_parcel_free(p);
            return fail(reason, rsize, "entry %zu: %s", k, r);
        }
        if (parse_size(sp + 1, jt_kind_max_bytes(f.n.kind), &sz) < 0) {
            jt_parcel_free(p);
            return fail(reason, rsize, "entry %zu (%s): size \"%.32s\" is not a number of bytes up to %lld", k,
                        line, sp + 1, jt_kind_max_bytes(f.n.kind));
        }
        if (sz > len - pos) {
            jt_parcel_free(p);
            return fail(reason, rsize, "entry %zu (%s): %zu bytes announced, %zu left (truncated)", k, line, sz, len - pos);
        }
        if (p->nfiles >= JT_PARCEL_MAX_FILES) {
            jt_parcel_free(p);
            return fail(reason, rsize, "more than %d files", JT_PARCEL_MAX_FILES);
        }
        for (size_t i = 0; i < p->nfiles; i++)
            if (strcmp(p->files[i].name, line) == 0) {
                jt_parcel_free(p);
                return fail(reason, rsize, "entry %zu: %s appears twice", i + 1, line);
            }
        if (f.n.kind != JT_JOB_RECORD) {
            if (pinned && (strcmp(pinned->step, f.n.step) != 0 || strcmp(pinned->node, f.n.node) != 0)) {
                char r[2048];
                snprintf(r, sizeof r, "entry %zu: %s is of step %s on node %s, the parcel's earlier files of step %s on node %s",
                         k, line, f.n.step, f.n.node, pinned->step, pinned->node);
                jt_parcel_free(p);
                return fail(reason, rsize, "%s", r);
            }
        }
        memcpy(f.name, line, strlen(line) + 1); /* jt_name_parse bounded it by JT_NAME_MAX */
        f.data = body + pos;
        f.len = sz;
        pos += sz;
        if (p->nfiles == cap) {
            cap = cap ? cap * 2 : 16;
            struct jt_file *nf = realloc(p->files, cap * sizeof *nf);
            if (!nf) {
                jt_parcel_free(p);
                return fail(reason, rsize, "out of memory");
            }
            p->files = nf;
        }
        p->files[p->nfiles++] = f;
        if (f.n.kind != JT_JOB_RECORD && !pinned)
            pinned = &p->files[p->nfiles - 1].n;
        else if (pinned) /* files may have moved */
            for (size_t i = 0; i < p->nfiles; i++)
                if (p->files[i].n.kind != JT_JOB_RECORD) {
                    pinned = &p->files[i].n;
                    break;
                }
    }
    if (used)
        *used = pos;
    if (!used && pos != len) {
        size_t extra_bytes = len - pos;
        jt_parcel_free(p);
        return fail(reason, rsize, "%zu bytes after \"end\"", extra_bytes);
    }
    if (p->nfiles == 0) {
        jt_parcel_free(p);
        return fail(reason, rsize, "no file in the parcel");
    }
    return 0;
}

int jt_parcel_parse(const char *body, size_t len, struct jt_parcel *p, char *reason, size_t rsize)
{
    return parse_one(body, len, NULL, p, reason, rsize);
}

void jt_post_free(struct jt_post *post)
{
    for (size_t i = 0; i < post->n; i++)
        jt_parcel_free(&post->parcels[i]);
    free(post->parcels);
    memset(post, 0, sizeof *post);
}

int jt_post_parse(const char *body, size_t len, struct jt_post *post, char *reason, size_t rsize)
{
    memset(post, 0, sizeof *post);
    size_t pos = 0, cap = 0;
    char r[JT_REASON_MAX];
    while (pos < len || post->n == 0) {
        size_t used = 0;
        if (post->n == JT_POST_MAX_PARCELS) {
            jt_post_free(post);
            return fail(reason, rsize, "more than %d parcels in one post", JT_POST_MAX_PARCELS);
        }
        if (post->n == cap) {
            cap = cap ? cap * 2 : 8;
            struct jt_parcel *np = realloc(post->parcels, cap * sizeof *np);
            if (!np) {
                jt_post_free(post);
                return fail(reason, rsize, "out of memory");
            }
            post->parcels = np;
        }
        if (parse_one(body + pos, len - pos, &used, &post->parcels[post->n], r, sizeof r) < 0) {
            size_t k = post->n + 1;
            jt_post_free(post);
            /* a post of one parcel is told as before, without its number */
            if (k == 1)
                return fail(reason, rsize, "%s", r);
            return fail(reason, rsize, "parcel %zu (byte %zu): %s", k, pos, r);
        }
        post->nfiles += post->parcels[post->n++].nfiles;
        pos += used;
        if (post->nfiles > JT_POST_MAX_FILES) {
            jt_post_free(post);
            return fail(reason, rsize, "more than %d files in one post", JT_POST_MAX_FILES);
        }
    }
    return 0;
}

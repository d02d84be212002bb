/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The processes of a bundle as columns (bundle version 3): see bundle_cols.h. The writer's
 * side reads the profile text its own writer made (trusted: the same build), so its reader
 * knows the format's members only and refuses anything else. */
#include "bundle_cols.h"
#include "profile_format.h"
#include "series.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCOLS_MAX 256

static struct js_col_def defs[NCOLS_MAX];
static int ndefs;
static int hidx[1024]; /* name hash -> index + 1 */
static pthread_once_t defs_once = PTHREAD_ONCE_INIT;

static uint64_t fnv(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

const char *const js_cols_table_names[JS_CT_COUNT] = { "processes", "files", "trees", "renames", "segment_groups",
                                                       "segment_bins", "segment_slowest" };

static void def(const char *member, const char *field, enum js_cols_table t, char type)
{
    struct js_col_def *d = &defs[ndefs];
    if (field)
        snprintf(d->name, sizeof d->name, "%s.%s", member, field);
    else
        snprintf(d->name, sizeof d->name, "%s", member);
    d->is_str = type == 's';
    d->table = t;
    d->member = member;
    d->field = field;
    d->type = type;
    size_t h = fnv(d->name, strlen(d->name)) % 1024;
    while (hidx[h])
        h = (h + 1) % 1024;
    hidx[h] = ++ndefs;
}

#define JS_X(id, name, type, unit, desc) { name, type },
static const struct { const char *name; char type; } top[] = {
    JS_PROFILE_FIELDS(JS_X)
}, file_fields[] = {
    JS_PROFILE_FILE_FIELDS(JS_X)
}, tree_fields[] = {
    JS_PROFILE_TREE_FIELDS(JS_X)
}, rename_fields[] = {
    JS_PROFILE_RENAME_FIELDS(JS_X)
}, seg_fields[] = {
    JS_PROFILE_SEGMENT_FIELDS(JS_X)
}, seg_group_fields[] = {
    JS_PROFILE_SEGMENT_GROUP_FIELDS(JS_X)
}, seg_slow_fields[] = {
    JS_PROFILE_SEGMENT_SLOW_FIELDS(JS_X)
};
#undef JS_X
static const char *const runtime_names[] = {
#define JS_X(id, name, desc) name,
    JS_PROFILE_RUNTIME_FIELDS(JS_X)
#undef JS_X
};
static const char *const kio_names[] = {
#define JS_X(id, name, unit, desc) name,
    JS_PROFILE_KERNEL_IO_FIELDS(JS_X)
#undef JS_X
};
static const char *const coll_fields[] = { "calls", "bytes", "ns" };
static char coll_names[JS_COLL_COUNT][48];

#define NELEM(a) (sizeof (a) / sizeof (a)[0])

static void defs_init(void)
{
    for (size_t i = 0; i < NELEM(top); i++) {
        const char *m = top[i].name;
        char t = top[i].type;
        if (t == 's' || t == 'u' || t == 'i' || t == 'b')
            def(m, NULL, JS_CT_PROC, t);
        else if (!strcmp(m, "kernel_io")) {
            def(m, NULL, JS_CT_PROC, 'u');
            for (int k = 0; k < JS_KIO_COUNT; k++)
                def(m, kio_names[k], JS_CT_PROC, 'u');
        } else if (!strcmp(m, "runtime"))
            for (size_t k = 0; k < NELEM(runtime_names); k++)
                def(m, runtime_names[k], JS_CT_PROC, 'u');
        else if (!strcmp(m, "totals"))
            for (int k = 0; k < JS_M_COUNT; k++)
                def(m, js_profile_metrics[k].name, JS_CT_PROC, 'u');
        else if (!strcmp(m, "mpi_collectives"))
            for (int k = 0; k < JS_COLL_COUNT; k++) {
                snprintf(coll_names[k], sizeof coll_names[k], "mpi_collectives.%s", js_profile_coll_kinds[k]);
                def(coll_names[k], NULL, JS_CT_PROC, 'u');
                for (size_t f = 0; f < NELEM(coll_fields); f++)
                    def(coll_names[k], coll_fields[f], JS_CT_PROC, 'u');
            }
        else if (!strcmp(m, "files") || !strcmp(m, "trees") || !strcmp(m, "renames"))
            def(m, NULL, JS_CT_PROC, 'u'); /* rows of the process in its table */
        else if (!strcmp(m, "mpi_segments")) {
            def(m, NULL, JS_CT_PROC, 'u'); /* 1: it has members */
            for (size_t k = 0; k < NELEM(seg_fields); k++) /* the groups' and slowest's: rows */
                def(m, seg_fields[k].name, JS_CT_PROC, seg_fields[k].type == 'a' ? 'u' : seg_fields[k].type);
        }
    }
    for (size_t i = 0; i < NELEM(seg_group_fields); i++) /* "bins": the group's rows of bins */
        def("mpi_segments.groups", seg_group_fields[i].name, JS_CT_SEG_GROUPS, seg_group_fields[i].type == 'a' ? 'u' : seg_group_fields[i].type);
    def("mpi_segments.groups.bins", "bin", JS_CT_SEG_BINS, 'u');
    def("mpi_segments.groups.bins", "count", JS_CT_SEG_BINS, 'u');
    for (size_t i = 0; i < NELEM(seg_slow_fields); i++)
        def("mpi_segments.slowest", seg_slow_fields[i].name, JS_CT_SEG_SLOWEST, seg_slow_fields[i].type);
    for (size_t i = 0; i < NELEM(file_fields); i++)
        def("files", file_fields[i].name, JS_CT_FILES, file_fields[i].type);
    for (size_t i = 0; i < NELEM(tree_fields); i++)
        def("trees", tree_fields[i].name, JS_CT_TREES, tree_fields[i].type);
    for (size_t i = 0; i < NELEM(rename_fields); i++)
        def("renames", rename_fields[i].name, JS_CT_RENAMES, rename_fields[i].type);
}

int js_cols_count(void)
{
    pthread_once(&defs_once, defs_init);
    return ndefs;
}

const struct js_col_def *js_cols_def(int c)
{
    pthread_once(&defs_once, defs_init);
    return c >= 0 && c < ndefs ? &defs[c] : NULL;
}

int js_cols_index(const char *name, size_t n)
{
    pthread_once(&defs_once, defs_init);
    for (size_t h = fnv(name, n) % 1024; hidx[h]; h = (h + 1) % 1024) {
        const char *d = defs[hidx[h] - 1].name;
        if (strlen(d) == n && !memcmp(d, name, n))
            return hidx[h] - 1;
    }
    return -1;
}

int js_cols_decode(const char *text, size_t n, size_t rows, int64_t *out, unsigned char *buf)
{
    long len = js_b64_decode(text, n, buf, JS_SERIES_MAX_BYTES(rows));
    if (len < 0)
        return -1;
    if (len == 0) {
        memset(out, 0, rows * sizeof *out);
        return 0;
    }
    unsigned w = buf[0];
    if (w > 8 || len < JS_SERIES_HEADER || (size_t)len != JS_SERIES_HEADER + rows * w)
        return -1;
    uint64_t base = 0;
    for (int k = 0; k < 8; k++)
        base = base << 8 | buf[1 + k];
    const unsigned char *p = buf + JS_SERIES_HEADER;
    for (size_t i = 0; i < rows; i++) {
        uint64_t d = 0;
        for (unsigned k = 0; k < w; k++)
            d = d << 8 | *p++;
        out[i] = (int64_t)(base + d); /* the writer's value - base, back */
    }
    return 0;
}

/* ---- the writer's side ---- */

struct col {
    int64_t *v;
    size_t cap;
    int has;
};

struct js_cols {
    size_t rows[JS_CT_COUNT];
    struct col col[NCOLS_MAX];
    char **str;               /* the dictionary: raw JSON string contents, escapes kept */
    size_t *slen, nstr, capstr;
    size_t *sh, shcap;        /* hash: index + 1 */
};

struct js_cols *js_cols_new(void)
{
    pthread_once(&defs_once, defs_init);
    return calloc(1, sizeof(struct js_cols));
}

void js_cols_reset(struct js_cols *c)
{
    for (int i = 0; i < ndefs; i++)
        c->col[i].has = 0;
    memset(c->rows, 0, sizeof c->rows);
    for (size_t i = 0; i < c->nstr; i++)
        free(c->str[i]);
    c->nstr = 0;
    if (c->sh)
        memset(c->sh, 0, c->shcap * sizeof *c->sh);
}

void js_cols_free(struct js_cols *c)
{
    if (!c)
        return;
    js_cols_reset(c);
    for (int i = 0; i < ndefs; i++)
        free(c->col[i].v);
    free(c->str);
    free(c->slen);
    free(c->sh);
    free(c);
}

size_t js_cols_processes(const struct js_cols *c) { return c->rows[JS_CT_PROC]; }

size_t js_cols_rows(const struct js_cols *c)
{
    size_t n = 0;
    for (int t = 0; t < JS_CT_COUNT; t++)
        n += c->rows[t];
    return n;
}

/* a new row of table t, every column of it 0: its index, or -1 out of memory */
static long row_add(struct js_cols *c, enum js_cols_table t)
{
    size_t r = c->rows[t];
    for (int i = 0; i < ndefs; i++) {
        struct col *k = &c->col[i];
        if (defs[i].table != t)
            continue;
        if (r >= k->cap) {
            size_t cap = k->cap ? 2 * k->cap : 64;
            int64_t *v = realloc(k->v, cap * sizeof *v);
            if (!v)
                return -1;
            k->v = v;
            k->cap = cap;
        }
        k->v[r] = 0;
    }
    c->rows[t]++;
    return (long)r;
}

static void set(struct js_cols *c, int i, size_t row, int64_t v)
{
    c->col[i].v[row] = v;
    c->col[i].has = 1;
}

/* the dictionary's index of a string (raw JSON contents), -1 out of memory */
static long str_index(struct js_cols *c, const char *s, size_t n)
{
    if (c->nstr * 2 >= c->shcap) {
        size_t cap = c->shcap ? 2 * c->shcap : 256;
        size_t *h = calloc(cap, sizeof *h);
        if (!h)
            return -1;
        for (size_t i = 0; i < c->nstr; i++) {
            size_t j = fnv(c->str[i], c->slen[i]) % cap;
            while (h[j])
                j = (j + 1) % cap;
            h[j] = i + 1;
        }
        free(c->sh);
        c->sh = h;
        c->shcap = cap;
    }
    size_t j = fnv(s, n) % c->shcap;
    for (; c->sh[j]; j = (j + 1) % c->shcap)
        if (c->slen[c->sh[j] - 1] == n && !memcmp(c->str[c->sh[j] - 1], s, n))
            return (long)c->sh[j] - 1;
    if (c->nstr == c->capstr) {
        size_t cap = c->capstr ? 2 * c->capstr : 64;
        char **a = realloc(c->str, cap * sizeof *a);
        if (!a)
            return -1;
        c->str = a;
        size_t *l = realloc(c->slen, cap * sizeof *l);
        if (!l)
            return -1;
        c->slen = l;
        c->capstr = cap;
    }
    char *d = malloc(n + 1);
    if (!d)
        return -1;
    memcpy(d, s, n);
    d[n] = '\0';
    c->str[c->nstr] = d;
    c->slen[c->nstr] = n;
    c->sh[j] = ++c->nstr;
    return (long)c->nstr - 1;
}

/* --- a reader of the writer's own JSON text --- */
struct ps {
    const char *p, *e;
};

static void ws(struct ps *s)
{
    while (s->p < s->e && (*s->p == ' ' || *s->p == '\n' || *s->p == '\t' || *s->p == '\r'))
        s->p++;
}

static int lit(struct ps *s, char ch)
{
    ws(s);
    if (s->p >= s->e || *s->p != ch)
        return -1;
    s->p++;
    return 0;
}

/* the next token is ch (not taken) */
static int peek(struct ps *s, char ch)
{
    ws(s);
    return s->p < s->e && *s->p == ch;
}

static int str_raw(struct ps *s, const char **a, size_t *n)
{
    if (lit(s, '"'))
        return -1;
    *a = s->p;
    while (s->p < s->e && *s->p != '"')
        s->p += *s->p == '\\' ? 2 : 1;
    if (s->p >= s->e)
        return -1;
    *n = (size_t)(s->p - *a);
    s->p++;
    return 0;
}

static int num(struct ps *s, int64_t *v)
{
    ws(s);
    if (s->e - s->p >= 4 && !memcmp(s->p, "true", 4)) {
        s->p += 4;
        *v = 1;
        return 0;
    }
    if (s->e - s->p >= 5 && !memcmp(s->p, "false", 5)) {
        s->p += 5;
        *v = 0;
        return 0;
    }
    int neg = s->p < s->e && *s->p == '-';
    s->p += neg;
    if (s->p >= s->e || *s->p < '0' || *s->p > '9')
        return -1;
    uint64_t x = 0;
    while (s->p < s->e && *s->p >= '0' && *s->p <= '9')
        x = x * 10 + (uint64_t)(*s->p++ - '0');
    if (x > (uint64_t)INT64_MAX)
        x = (uint64_t)INT64_MAX; /* the writers' unsigned values stay below */
    *v = neg ? -(int64_t)x : (int64_t)x;
    return 0;
}

/* column "prefix.key" (or "prefix" when key is NULL) */
static int col_of(const char *prefix, const char *key, size_t kn)
{
    char name[96];
    int l = key ? snprintf(name, sizeof name, "%s.%.*s", prefix, (int)kn, key) : snprintf(name, sizeof name, "%s", prefix);
    return l > 0 && (size_t)l < sizeof name ? js_cols_index(name, (size_t)l) : -1;
}

/* a value into column i at row r: a string as its index in the dictionary */
static int value(struct js_cols *c, struct ps *s, int i, size_t r)
{
    int64_t v;
    const char *a;
    size_t n;
    if (i < 0)
        return -1;
    if (defs[i].is_str) {
        long k;
        if (str_raw(s, &a, &n) || (k = str_index(c, a, n)) < 0)
            return -1;
        v = k;
    } else if (num(s, &v))
        return -1;
    set(c, i, r, v);
    return 0;
}

/* an object of numbers (kernel_io, runtime, totals, an entry of mpi_collectives), its members
 * into the columns "prefix.member" of process r; *any: it had members */
static int flat_object(struct js_cols *c, struct ps *s, const char *prefix, size_t r, int *any)
{
    const char *k;
    size_t kn;
    *any = 0;
    if (lit(s, '{'))
        return -1;
    if (peek(s, '}'))
        return lit(s, '}');
    do {
        if (str_raw(s, &k, &kn) || lit(s, ':') || value(c, s, col_of(prefix, k, kn), r))
            return -1;
        *any = 1;
    } while (!lit(s, ','));
    return lit(s, '}');
}

static int collectives(struct js_cols *c, struct ps *s, size_t r)
{
    const char *k;
    size_t kn;
    int any;
    if (lit(s, '{'))
        return -1;
    if (peek(s, '}'))
        return lit(s, '}');
    do {
        int i;
        if (str_raw(s, &k, &kn) || lit(s, ':') || (i = col_of("mpi_collectives", k, kn)) < 0)
            return -1;
        set(c, i, r, 1);
        if (flat_object(c, s, defs[i].name, r, &any))
            return -1;
    } while (!lit(s, ','));
    return lit(s, '}');
}

/* [bin, count] pairs of group row g */
static int bins(struct js_cols *c, struct ps *s, size_t g, int cnt)
{
    int64_t b, n;
    if (lit(s, '['))
        return -1;
    if (peek(s, ']'))
        return lit(s, ']');
    do {
        long r = row_add(c, JS_CT_SEG_BINS);
        if (r < 0 || lit(s, '[') || num(s, &b) || lit(s, ',') || num(s, &n) || lit(s, ']'))
            return -1;
        set(c, col_of("mpi_segments.groups.bins", "bin", 3), (size_t)r, b);
        set(c, col_of("mpi_segments.groups.bins", "count", 5), (size_t)r, n);
        set(c, cnt, g, c->col[cnt].v[g] + 1);
    } while (!lit(s, ','));
    return lit(s, ']');
}

/* files, trees, renames, or the MPI segments' groups (with their bins) and slowest of process
 * r: rows of table t, each an object of fields "name.<field>", counted in its column "name" */
static int table(struct js_cols *c, struct ps *s, const char *name, enum js_cols_table t, size_t r)
{
    int cnt = col_of(name, NULL, 0), bcnt = t == JS_CT_SEG_GROUPS ? col_of("mpi_segments.groups.bins", NULL, 0) : -1;
    const char *k;
    size_t kn;
    if (lit(s, '['))
        return -1;
    if (peek(s, ']'))
        return lit(s, ']');
    do {
        long row = row_add(c, t);
        if (row < 0 || lit(s, '{'))
            return -1;
        set(c, cnt, r, c->col[cnt].v[r] + 1);
        if (!peek(s, '}'))
            do {
                if (str_raw(s, &k, &kn) || lit(s, ':'))
                    return -1;
                if (t == JS_CT_SEG_GROUPS && kn == 4 && !memcmp(k, "bins", 4)) {
                    set(c, bcnt, (size_t)row, 0);
                    if (bins(c, s, (size_t)row, bcnt))
                        return -1;
                } else if (value(c, s, col_of(name, k, kn), (size_t)row))
                    return -1;
            } while (!lit(s, ','));
        if (lit(s, '}'))
            return -1;
    } while (!lit(s, ','));
    return lit(s, ']');
}

/* "mpi_segments": its numbers into the process's columns, its groups (with their bins) and
 * slowest into their tables; "mpi_segments" 1 when it has members */
static int segments(struct js_cols *c, struct ps *s, size_t r)
{
    const char *k;
    size_t kn;
    if (lit(s, '{'))
        return -1;
    if (peek(s, '}'))
        return lit(s, '}');
    set(c, col_of("mpi_segments", NULL, 0), r, 1);
    do {
        int rc;
        if (str_raw(s, &k, &kn) || lit(s, ':'))
            return -1;
        if (kn == 6 && !memcmp(k, "groups", 6))
            rc = table(c, s, "mpi_segments.groups", JS_CT_SEG_GROUPS, r);
        else if (kn == 7 && !memcmp(k, "slowest", 7))
            rc = table(c, s, "mpi_segments.slowest", JS_CT_SEG_SLOWEST, r);
        else
            rc = value(c, s, col_of("mpi_segments", k, kn), r);
        if (rc)
            return -1;
    } while (!lit(s, ','));
    return lit(s, '}');
}

static int member(struct js_cols *c, struct ps *s, const char *k, size_t kn, size_t r)
{
    int any;
#define IS(lit) (kn == sizeof lit - 1 && !memcmp(k, lit, kn))
    if (IS("mpi_segments"))
        return segments(c, s, r);
    if (IS("mpi_collectives"))
        return collectives(c, s, r);
    if (IS("runtime") || IS("totals"))
        return flat_object(c, s, IS("runtime") ? "runtime" : "totals", r, &any);
    if (IS("kernel_io")) {
        if (flat_object(c, s, "kernel_io", r, &any))
            return -1;
        set(c, col_of("kernel_io", NULL, 0), r, any);
        return 0;
    }
    if (IS("files"))
        return table(c, s, "files", JS_CT_FILES, r);
    if (IS("trees"))
        return table(c, s, "trees", JS_CT_TREES, r);
    if (IS("renames"))
        return table(c, s, "renames", JS_CT_RENAMES, r);
#undef IS
    int i = js_cols_index(k, kn);
    if (i < 0 || defs[i].table != JS_CT_PROC || defs[i].field)
        return -1;
    return value(c, s, i, r);
}

int js_cols_add(struct js_cols *c, const char *text, size_t n)
{
    size_t rows[JS_CT_COUNT];
    memcpy(rows, c->rows, sizeof rows);
    struct ps s = { text, text + n };
    const char *k;
    size_t kn;
    long r = row_add(c, JS_CT_PROC);
    int rc = r < 0 || lit(&s, '{') ? -1 : 0;
    if (rc == 0 && !peek(&s, '}'))
        do
            rc = str_raw(&s, &k, &kn) || lit(&s, ':') || member(c, &s, k, kn, (size_t)r) ? -1 : 0;
        while (rc == 0 && !lit(&s, ','));
    if (rc == 0)
        rc = lit(&s, '}');
    if (rc != 0) /* nothing of it */
        memcpy(c->rows, rows, sizeof rows);
    return rc;
}

int js_cols_write(const struct js_cols *c, js_fold_emit_fn emit, void *ctx)
{
    size_t most = 1;
    for (int t = 0; t < JS_CT_COUNT; t++)
        most = c->rows[t] > most ? c->rows[t] : most;
    unsigned char *enc = malloc(JS_SERIES_MAX_BYTES(most));
    char *text = malloc(JS_B64_LEN(JS_SERIES_MAX_BYTES(most)) + 1);
    if (!enc || !text) {
        free(enc);
        free(text);
        return -1;
    }
    char head[64];
    for (int t = 0; t < JS_CT_COUNT; t++) {
        int l = snprintf(head, sizeof head, "\"%s\":%zu,", js_cols_table_names[t], c->rows[t]);
        emit(ctx, head, (size_t)l);
    }
    emit(ctx, "\"strings\":[", 11);
    for (size_t i = 0; i < c->nstr; i++) {
        emit(ctx, i ? ",\"" : "\"", i ? 2 : 1);
        emit(ctx, c->str[i], c->slen[i]);
        emit(ctx, "\"", 1);
    }
    emit(ctx, "],\"columns\":{", 13);
    for (int i = 0, first = 1; i < ndefs; i++) {
        size_t rows = c->rows[defs[i].table];
        if (!c->col[i].has || rows == 0)
            continue;
        size_t len = js_series_encode(c->col[i].v, rows, 1, enc);
        size_t tl = js_b64_encode(enc, len, text);
        emit(ctx, first ? "\"" : ",\"", first ? 1 : 2);
        first = 0;
        emit(ctx, defs[i].name, strlen(defs[i].name));
        emit(ctx, "\":\"", 3);
        emit(ctx, text, tl);
        emit(ctx, "\"", 1);
    }
    emit(ctx, "}", 1);
    free(enc);
    free(text);
    return 0;
}

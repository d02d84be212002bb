/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The node's fold of a bundle: see bundle_series.h. */
#include "bundle_series.h"

#include "series.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct js_metric_def js_spread_metrics[JS_SPREAD_COUNT] = {
#define JS_X(id, name, unit, desc) [JS_SPREAD_##id] = { name, unit, desc },
    JS_SPREAD_METRICS(JS_X)
#undef JS_X
};

static int64_t sat(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

int64_t js_spread_value(const int64_t *row, int k)
{
    switch ((enum js_spread)k) {
    case JS_SPREAD_CPU_NS: return row[JS_M_CPU_NS];
    case JS_SPREAD_MPI_NS: return sat(row[JS_M_MPI_P2P_NS], row[JS_M_MPI_COLL_NS]);
    case JS_SPREAD_IO_NS: return sat(sat(row[JS_M_POSIX_NS], row[JS_M_STDIO_NS]), row[JS_M_MPIIO_NS]);
    case JS_SPREAD_IO_BYTES:
        return sat(sat(sat(row[JS_M_POSIX_READ_BYTES], row[JS_M_POSIX_WRITE_BYTES]),
                       sat(row[JS_M_STDIO_READ_BYTES], row[JS_M_STDIO_WRITE_BYTES])),
                   sat(row[JS_M_MPIIO_READ_BYTES], row[JS_M_MPIIO_WRITE_BYTES]));
    case JS_SPREAD_COUNT: break;
    }
    return 0;
}

void js_fold_init(struct js_fold *f) { memset(f, 0, sizeof *f); }

void js_fold_reset(struct js_fold *f)
{
    f->n = 0;
    for (size_t i = 0; i < f->hcap; i++)
        f->keys[i] = INT64_MIN;
}

void js_fold_free(struct js_fold *f)
{
    free(f->s);
    free(f->keys);
    free(f->idx);
    js_fold_init(f);
}

static size_t slot_of(const struct js_fold *f, int64_t slice)
{
    size_t i = (size_t)(((uint64_t)slice * 0x9E3779B97F4A7C15ULL) >> 17) & (f->hcap - 1);
    while (f->keys[i] != INT64_MIN && f->keys[i] != slice)
        i = (i + 1) & (f->hcap - 1);
    return i;
}

static int rehash(struct js_fold *f, size_t hcap)
{
    int64_t *keys = malloc(hcap * sizeof *keys);
    size_t *idx = malloc(hcap * sizeof *idx);
    if (!keys || !idx) {
        free(keys);
        free(idx);
        return -1;
    }
    free(f->keys);
    free(f->idx);
    f->keys = keys;
    f->idx = idx;
    f->hcap = hcap;
    for (size_t i = 0; i < hcap; i++)
        keys[i] = INT64_MIN;
    for (size_t k = 0; k < f->n; k++) {
        size_t j = slot_of(f, f->s[k].slice);
        keys[j] = f->s[k].slice;
        idx[j] = k;
    }
    return 0;
}

/* The slice's entry, made (zero) when new; NULL when out of memory. */
static struct js_fold_slice *entry(struct js_fold *f, int64_t slice)
{
    if (2 * (f->n + 1) > f->hcap && rehash(f, f->hcap ? 2 * f->hcap : 256) != 0)
        return NULL;
    size_t j = slot_of(f, slice);
    if (f->keys[j] == slice)
        return &f->s[f->idx[j]];
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 64;
        struct js_fold_slice *s = realloc(f->s, cap * sizeof *s);
        if (!s)
            return NULL;
        f->s = s;
        f->cap = cap;
    }
    struct js_fold_slice *e = &f->s[f->n];
    memset(e, 0, sizeof *e);
    e->slice = slice;
    f->keys[j] = slice;
    f->idx[j] = f->n++;
    return e;
}

void js_spread_merge(int64_t *lo, int64_t *hi, int64_t *pid, const int64_t *xlo, const int64_t *xhi, const int64_t *xpid)
{
    for (int k = 0; k < JS_SPREAD_COUNT; k++) {
        lo[k] = xlo[k] < lo[k] ? xlo[k] : lo[k];
        if (xhi[k] > hi[k] || (xhi[k] == hi[k] && xpid[k] < pid[k])) {
            hi[k] = xhi[k];
            pid[k] = xpid[k];
        }
    }
}

void js_fold_slice_merge(struct js_fold_slice *d, const struct js_fold_slice *x)
{
    if (x->v[0] > 0 && d->v[0] > 0)
        js_spread_merge(d->lo, d->hi, d->hi_pid, x->lo, x->hi, x->hi_pid);
    else if (x->v[0] > 0) {
        memcpy(d->lo, x->lo, sizeof d->lo);
        memcpy(d->hi, x->hi, sizeof d->hi);
        memcpy(d->hi_pid, x->hi_pid, sizeof d->hi_pid);
    }
    for (int c = 0; c < JS_FOLD_COLS; c++)
        d->v[c] = sat(d->v[c], x->v[c]);
}

int js_fold_merge(struct js_fold *f, const struct js_fold_slice *x)
{
    struct js_fold_slice *d = entry(f, x->slice);
    if (!d)
        return -1;
    js_fold_slice_merge(d, x);
    return 0;
}

int js_fold_add_row(struct js_fold *f, int64_t slice, const int64_t *row, int64_t pid)
{
    struct js_fold_slice x;
    x.slice = slice;
    x.v[0] = 1;
    memcpy(x.v + 1, row, JS_SLICE_COLS * sizeof *row);
    for (int k = 0; k < JS_SPREAD_COUNT; k++) {
        x.lo[k] = x.hi[k] = js_spread_value(row, k);
        x.hi_pid[k] = pid;
    }
    return js_fold_merge(f, &x);
}

static int cmp_slice(const void *a, const void *b)
{
    int64_t x = ((const struct js_fold_slice *)a)->slice, y = ((const struct js_fold_slice *)b)->slice;
    return (x > y) - (x < y);
}

void js_fold_sort(struct js_fold *f)
{
    if (f->n > 1)
        qsort(f->s, f->n, sizeof *f->s, cmp_slice);
    for (size_t k = 0; k < f->n; k++) /* same slots, new indexes */
        f->idx[slot_of(f, f->s[k].slice)] = k;
}

/* ---- base64 ---- */
static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t js_b64_encode(const unsigned char *in, size_t n, char *out)
{
    char *o = out;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t w = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) | (i + 2 < n ? in[i + 2] : 0);
        *o++ = b64[w >> 18];
        *o++ = b64[(w >> 12) & 63];
        *o++ = i + 1 < n ? b64[(w >> 6) & 63] : '=';
        *o++ = i + 2 < n ? b64[w & 63] : '=';
    }
    *o = '\0';
    return (size_t)(o - out);
}

static int b64_value(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26 : c >= '0' && c <= '9' ? c - '0' + 52
         : c == '+' ? 62 : c == '/' ? 63 : -1;
}

long js_b64_decode(const char *in, size_t n, unsigned char *out, size_t cap)
{
    if (n % 4)
        return -1;
    size_t o = 0;
    for (size_t i = 0; i < n; i += 4) {
        int pad = (in[i + 3] == '=') + (in[i + 2] == '=');
        if (pad && i + 4 != n)
            return -1;
        int a = b64_value((unsigned char)in[i]), b = b64_value((unsigned char)in[i + 1]);
        int c = pad >= 2 ? 0 : b64_value((unsigned char)in[i + 2]), d = pad >= 1 ? 0 : b64_value((unsigned char)in[i + 3]);
        if (a < 0 || b < 0 || c < 0 || d < 0 || o + 3 - (size_t)pad > cap)
            return -1;
        uint32_t w = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | (uint32_t)d;
        out[o++] = (unsigned char)(w >> 16);
        if (pad < 2)
            out[o++] = (unsigned char)(w >> 8);
        if (pad < 1)
            out[o++] = (unsigned char)w;
    }
    return (long)o;
}

/* ---- the "series" member ---- */
struct writer {
    js_fold_emit_fn emit;
    void *ctx;
    unsigned char *enc; /* JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK) */
    char *text;         /* its base64 */
};

static void put(struct writer *w, const char *s) { w->emit(w->ctx, s, strlen(s)); }

/* One array of series: n slices of dense rows of `stride` values, from value `col`. */
static void put_series_list(struct writer *w, const char *key, const int64_t *dense, size_t n, size_t stride, int col,
                            int count)
{
    put(w, ",\"");
    put(w, key);
    put(w, "\":[");
    for (int c = 0; c < count; c++) {
        size_t len = js_series_encode(dense + col + c, n, stride, w->enc);
        size_t tl = js_b64_encode(w->enc, len, w->text);
        put(w, c ? ",\"" : "\"");
        w->emit(w->ctx, w->text, tl);
        put(w, "\"");
    }
    put(w, "]");
}

enum { ROW = JS_FOLD_COLS + 3 * JS_SPREAD_COUNT }; /* a dense row: sums, lo, hi, hi_pid */

static void put_chunk(struct writer *w, const struct js_fold_slice *s, size_t m, int64_t *dense)
{
    int64_t first = s[0].slice, n = s[m - 1].slice - first + 1;
    memset(dense, 0, (size_t)n * ROW * sizeof *dense);
    for (size_t i = 0; i < m; i++) {
        int64_t *r = dense + (size_t)(s[i].slice - first) * ROW;
        memcpy(r, s[i].v, sizeof s[i].v);
        if (s[i].v[0] > 0)
            for (int k = 0; k < JS_SPREAD_COUNT; k++) {
                r[JS_FOLD_COLS + k] = s[i].lo[k];
                r[JS_FOLD_COLS + JS_SPREAD_COUNT + k] = s[i].hi[k];
                r[JS_FOLD_COLS + 2 * JS_SPREAD_COUNT + k] = s[i].hi_pid[k];
            }
    }
    char head[96];
    snprintf(head, sizeof head, "{\"first_slice\":%" PRId64 ",\"slices\":%" PRId64, first, n);
    put(w, head);
    /* one process in each slice: its least and most are the sums, said by empty lists */
    int many = 0;
    for (size_t i = 0; i < m; i++)
        many |= s[i].v[0] > 1;
    put_series_list(w, "sums", dense, (size_t)n, ROW, 0, JS_FOLD_COLS);
    put_series_list(w, "min", dense, (size_t)n, ROW, JS_FOLD_COLS, many ? JS_SPREAD_COUNT : 0);
    put_series_list(w, "max", dense, (size_t)n, ROW, JS_FOLD_COLS + JS_SPREAD_COUNT, many ? JS_SPREAD_COUNT : 0);
    put_series_list(w, "max_pid", dense, (size_t)n, ROW, JS_FOLD_COLS + 2 * JS_SPREAD_COUNT, JS_SPREAD_COUNT);
    put(w, "}");
}

int js_fold_write(struct js_fold *f, js_fold_emit_fn emit, void *ctx)
{
    struct writer w = { emit, ctx, malloc(JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK)),
                        malloc(JS_B64_LEN(JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK)) + 1) };
    int64_t *dense = malloc((size_t)JS_SERIES_CHUNK * ROW * sizeof *dense);
    if (!w.enc || !w.text || !dense) {
        free(w.enc);
        free(w.text);
        free(dense);
        return -1;
    }
    js_fold_sort(f);
    put(&w, "{\"columns\":[\"processes\"");
    for (int c = 0; c < JS_SLICE_COLS; c++) {
        put(&w, ",\"");
        put(&w, js_profile_slice_cols[c].name);
        put(&w, "\"");
    }
    put(&w, "],\"spread\":[");
    for (int k = 0; k < JS_SPREAD_COUNT; k++) {
        put(&w, k ? ",\"" : "\"");
        put(&w, js_spread_metrics[k].name);
        put(&w, "\"");
    }
    put(&w, "],\"chunks\":[");
    for (size_t i = 0; i < f->n;) {
        int64_t chunk = js_series_chunk_of(f->s[i].slice);
        size_t j = i;
        while (j < f->n && js_series_chunk_of(f->s[j].slice) == chunk)
            j++;
        if (i)
            put(&w, ",");
        put_chunk(&w, f->s + i, j - i, dense);
        i = j;
    }
    put(&w, "]}");
    free(w.enc);
    free(w.text);
    free(dense);
    return 0;
}

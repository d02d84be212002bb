/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-slice series written as columns (docs/api.md, "Series"): the database keeps a step's
 * slices as one array per metric and the chart draws one array per metric, so the reply says
 * where its points lie once (first_slice, slice_seconds, slices_per_point) and then holds one
 * array per metric, written as text (struct jsw_text) instead of one Jansson object per slice. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "endpoints.h"
#include "profile_format.h"

size_t jsw_series_points(size_t n, size_t w)
{
    return n ? (n + w - 1) / w : 0;
}

void jsw_series_head(struct jsw_text *t, int64_t first, int64_t slice_seconds, size_t n, size_t w)
{
    jsw_text_lit(t, "{\"first_slice\":");
    if (n)
        jsw_text_int(t, first);
    else
        jsw_text_lit(t, "null");
    jsw_text_lit(t, ",\"slice_seconds\":");
    jsw_text_int(t, slice_seconds);
    jsw_text_lit(t, ",\"slices\":");
    jsw_text_int(t, (int64_t)n);
    jsw_text_lit(t, ",\"slices_per_point\":");
    jsw_text_int(t, (int64_t)w);
    jsw_text_lit(t, ",\"points\":");
    jsw_text_int(t, (int64_t)jsw_series_points(n, w));
}

void jsw_text_key(struct jsw_text *t, bool comma, const char *name)
{
    if (comma)
        jsw_text_raw(t, ",", 1);
    jsw_text_str(t, name);
    jsw_text_raw(t, ":", 1);
}

bool jsw_text_open_object(struct jsw_text *t, const json_t *o)
{
    jsw_text_json(t, o);
    if (t->oom || t->n < 2 || t->buf[t->n - 1] != '}')
        return false;
    t->buf[--t->n] = '\0';
    return json_object_size(o) > 0;
}

/* ---- the step's own slices: nodes, processes and the metrics per point ---------------------- */

/* the columns of a step's point: the metrics, the kernel's counts, then what the kernel counted
 * beyond the wrappers (unattributed reads, writes) */
enum { UNSEEN_R = JS_SLICE_COLS, UNSEEN_W, STEP_COLS };

static const char *step_col_name(int c)
{
    if (c < JS_SLICE_COLS)
        return js_profile_slice_cols[c].name;
    return c == UNSEEN_R ? "unattributed_read_bytes" : "unattributed_write_bytes";
}

/* Slice k of own added into the point's sums (STEP_COLS values, at apart: by column, so that
 * each column is written from memory in a row, not one cache line a value). */
static void add_slice(const struct jsw_slices *own, size_t k, int64_t *sum, size_t at)
{
    for (int m = 0; m < JS_M_COUNT; m++)
        if (own->v[m])
            sum[(size_t)m * at] += own->v[m][k];
    if (!own->kio)
        return;
    const int64_t *kv = own->kio + k * JS_KIO_COUNT;
    for (int m = 0; m < JS_KIO_COUNT; m++)
        sum[(size_t)(JS_M_COUNT + m) * at] += kv[m];
    int64_t r = kv[JS_KIO_RCHAR] - jsw_slices_at(own, JS_M_POSIX_READ_BYTES, k) -
                jsw_slices_at(own, JS_M_STDIO_READ_BYTES, k) - jsw_slices_at(own, JS_M_LOWER_READ_BYTES, k);
    int64_t w = kv[JS_KIO_WCHAR] - jsw_slices_at(own, JS_M_POSIX_WRITE_BYTES, k) -
                jsw_slices_at(own, JS_M_STDIO_WRITE_BYTES, k) - jsw_slices_at(own, JS_M_LOWER_WRITE_BYTES, k);
    sum[(size_t)UNSEEN_R * at] += r > 0 ? r : 0;
    sum[(size_t)UNSEEN_W * at] += w > 0 ? w : 0;
}

int jsw_step_series_text(struct jsw_text *t, const struct jsw_slices *own, int64_t slice_seconds, size_t w)
{
    size_t np = jsw_series_points(own->n, w);
    int64_t *nodes = calloc(np + 1, sizeof *nodes), *procs = calloc(np + 1, sizeof *procs);
    int64_t *sum = jsw_zalloc((np + 1) * STEP_COLS, sizeof *sum);
    if (!nodes || !procs || !sum) {
        free(nodes);
        free(procs);
        free(sum);
        return -1;
    }
    bool used[STEP_COLS] = { false };
    size_t at = np + 1; /* sum[c * at + p] */
    for (size_t p = 0; p < np; p++) {
        size_t end = (p + 1) * w < own->n ? (p + 1) * w : own->n;
        for (size_t k = p * w; k < end; k++) {
            nodes[p] = own->count[k] > nodes[p] ? own->count[k] : nodes[p];
            procs[p] = own->procs[k] > procs[p] ? own->procs[k] : procs[p];
            add_slice(own, k, sum + p, at);
        }
        for (int c = 0; c < STEP_COLS; c++)
            used[c] |= sum[(size_t)c * at + p] != 0;
    }
    jsw_series_head(t, own->first, slice_seconds, own->n, w);
    jsw_text_key(t, true, "nodes");
    jsw_text_int_array(t, nodes, np, 1);
    jsw_text_key(t, true, "processes");
    jsw_text_int_array(t, procs, np, 1);
    jsw_text_key(t, true, "metrics");
    jsw_text_raw(t, "{", 1);
    for (int c = 0, k = 0; c < STEP_COLS; c++) {
        if (!used[c])
            continue; /* a metric that is 0 throughout */
        jsw_text_key(t, k++ > 0, step_col_name(c));
        jsw_text_int_array(t, sum + (size_t)c * at, np, 1);
    }
    jsw_text_raw(t, "}", 1);
    free(nodes);
    free(procs);
    free(sum);
    return 0;
}

/* ---- the background: the step's own against the other jobs' per point ---------------------- */

/* One metric's sums per point of w slices of n: the step's own (x) into o and the others' (the
 * total y less x) into b, stride apart; a NULL column is zeros. Column by column: the values of
 * one metric lie together. */
static void point_sums(const int64_t *x, const int64_t *y, size_t n, size_t w, int64_t *o, int64_t *b, size_t stride)
{
    if (!x && !y)
        return;
    for (size_t p = 0, k = 0; k < n; p++) {
        size_t end = k + w < n ? k + w : n;
        int64_t so = 0, sb = 0;
        for (; k < end; k++) {
            int64_t xv = x ? x[k] : 0, yv = y ? y[k] : 0;
            so += xv;
            sb += yv > xv ? yv - xv : 0; /* a total may lag a step-node */
        }
        o[p * stride] = so;
        b[p * stride] = sb;
    }
}

int jsw_background_series_text(struct jsw_text *t, const struct jsw_slices *own, const struct jsw_slices *tot,
                               int only, bool withheld, int64_t slice_seconds, size_t w)
{
    size_t np = jsw_series_points(own->n, w);
    int64_t *others_nodes = calloc(np + 1, sizeof *others_nodes);
    /* by metric (o[m * at + p]): each array is then written from memory in a row */
    size_t at = np + 1;
    int64_t *o = jsw_zalloc(at * JS_M_COUNT, sizeof *o), *b = jsw_zalloc(at * JS_M_COUNT, sizeof *b);
    if (!others_nodes || !o || !b) {
        free(others_nodes);
        free(o);
        free(b);
        return -1;
    }
    for (size_t p = 0; p < np; p++) {
        size_t end = (p + 1) * w < own->n ? (p + 1) * w : own->n;
        for (size_t k = p * w; k < end; k++) {
            int64_t bn = tot->count[k] - own->count[k];
            others_nodes[p] = bn > others_nodes[p] ? bn : others_nodes[p];
        }
    }
    /* one metric asked for: only its sums (the loop over every metric was a third of the CPU) */
    for (int m = only < 0 ? 0 : only; m < (only < 0 ? JS_M_COUNT : only + 1); m++)
        point_sums(own->v[m], tot->v[m], own->n, w, o + (size_t)m * at, b + (size_t)m * at, 1);
    jsw_series_head(t, own->first, slice_seconds, own->n, w);
    for (int part = 0; part < 2; part++) {
        if (part == 1 && withheld)
            break;
        jsw_text_key(t, true, part ? "others" : "metrics");
        jsw_text_raw(t, "{", 1);
        for (int m = 0, k = 0; m < JS_M_COUNT; m++)
            if (only < 0 || m == only) {
                jsw_text_key(t, k++ > 0, js_profile_metrics[m].name);
                jsw_text_int_array(t, (part ? b : o) + (size_t)m * at, np, 1);
            }
        jsw_text_raw(t, "}", 1);
    }
    if (!withheld) {
        jsw_text_key(t, true, "other_step_nodes");
        jsw_text_int_array(t, others_nodes, np, 1);
    }
    jsw_text_raw(t, "}", 1);
    free(others_nodes);
    free(o);
    free(b);
    return 0;
}

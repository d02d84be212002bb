/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The node's fold of a bundle (bundle version 2, docs/profile-format.md, "The series of a
 * bundle"): per slice, the sums over the bundle's processes of every slice value (the metrics and
 * the kernel's counts), how many processes were active in it, and for the values where imbalance
 * matters (JS_SPREAD_METRICS) the least and the most one process had, and which process (pid)
 * had the most. The writer (jobscreen-collect, jsgen) folds each process's slice rows into a
 * struct js_fold and writes it as the bundle's "series" member: chunks of at most
 * JS_SERIES_CHUNK slices, each value an encoded series (common/series.h) in base64, so that the
 * numbers travel in the form the database keeps, not one JSON token each. The reader
 * (profile_ingest) decodes, checks and sums the folds of a step-node's bundles.
 */
#ifndef JS_BUNDLE_SERIES_H
#define JS_BUNDLE_SERIES_H

#include "profile_format.h"

#include <stddef.h>
#include <stdint.h>

/* The spread's values, derived from a slice row. X(ID, "json name", "unit", "meaning") */
#define JS_SPREAD_METRICS(X) \
    X(CPU_NS,   "cpu_ns",   "ns",    "CPU time (cpu_ns)") \
    X(MPI_NS,   "mpi_ns",   "ns",    "time in MPI calls (mpi_p2p_ns + mpi_coll_ns)") \
    X(IO_NS,    "io_ns",    "ns",    "time in I/O calls (posix_ns + stdio_ns + mpiio_ns)") \
    X(IO_BYTES, "io_bytes", "bytes", "bytes read and written (posix, stdio and MPI-IO reads and writes)")

enum js_spread {
#define JS_X(id, name, unit, desc) JS_SPREAD_##id,
    JS_SPREAD_METRICS(JS_X)
#undef JS_X
    JS_SPREAD_COUNT
};

extern const struct js_metric_def js_spread_metrics[JS_SPREAD_COUNT];

/* Value k of the spread of a slice row (JS_SLICE_COLS values), saturating at INT64_MAX. */
int64_t js_spread_value(const int64_t *row, int k);

/* The columns of a chunk's "sums": "processes", then the slice values (js_profile_slice_cols). */
#define JS_FOLD_COLS (1 + JS_SLICE_COLS)

/* One slice of a fold. lo/hi/hi_pid are meaningful when processes > 0. */
struct js_fold_slice {
    int64_t slice;
    int64_t v[JS_FOLD_COLS]; /* processes, then the sums */
    int64_t lo[JS_SPREAD_COUNT], hi[JS_SPREAD_COUNT], hi_pid[JS_SPREAD_COUNT];
};

struct js_fold {
    struct js_fold_slice *s; /* in the order first met; js_fold_sort orders them */
    size_t n, cap;
    int64_t *keys; /* open addressing: slice -> index in s */
    size_t *idx, hcap;
};

void js_fold_init(struct js_fold *f);
void js_fold_reset(struct js_fold *f);
void js_fold_free(struct js_fold *f);

/* One process's row of slice `slice` (JS_SLICE_COLS values, none negative). 0, -1 when out of
 * memory (the fold is unchanged). */
int js_fold_add_row(struct js_fold *f, int64_t slice, const int64_t *row, int64_t pid);

/* A slice of another fold (sums added, spreads merged). 0, -1 when out of memory. */
int js_fold_merge(struct js_fold *f, const struct js_fold_slice *x);

/* Another's spread (xlo, xhi, xpid: JS_SPREAD_COUNT values each) into lo, hi, pid: the least,
 * the most and whose most (the lower pid among equals). Both of slices with processes. */
void js_spread_merge(int64_t *lo, int64_t *hi, int64_t *pid, const int64_t *xlo, const int64_t *xhi, const int64_t *xpid);

/* Merge x's spread and sums into d (same slice). */
void js_fold_slice_merge(struct js_fold_slice *d, const struct js_fold_slice *x);

/* Slices in ascending order (the index is rebuilt). */
void js_fold_sort(struct js_fold *f);

/* The fold as the JSON value of a bundle's "series" member, through emit (sorts it first):
 * {"columns": ["processes", slice values...], "spread": [JS_SPREAD_METRICS names],
 *  "chunks": [{"first_slice", "slices", "sums": [a series per column], "min": [...], "max":
 *  [...], "max_pid": [a series per spread value]}, ...]}, each series base64; "min" and "max" are
 * [] in a chunk with at most one process in each slice (they are then the sums' values).
 * Returns 0, -1 when out of memory. */
typedef void (*js_fold_emit_fn)(void *ctx, const char *p, size_t n);
int js_fold_write(struct js_fold *f, js_fold_emit_fn emit, void *ctx);

/* Base64 (RFC 4648, with padding). Encode: out holds JS_B64_LEN(n) + 1 bytes, NUL-terminated;
 * returns the length. Decode: -1 when the text is not base64 or needs more than cap bytes. */
#define JS_B64_LEN(n) (4 * (((size_t)(n) + 2) / 3))
size_t js_b64_encode(const unsigned char *in, size_t n, char *out);
long js_b64_decode(const char *in, size_t n, unsigned char *out, size_t cap);

#endif

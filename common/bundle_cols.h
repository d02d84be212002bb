/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The processes of a bundle as columns (bundle version 3, docs/profile-format.md, "Bundle
 * version 3"). A writer (jobscreen-collect, jsgen) hands each profile's text, as it would have
 * put it into a bundle of version 2, to js_cols_add; js_cols_write then writes the bundle's
 * members:
 *
 *   "processes": N, "files": F, "trees": T, "renames": R,
 *   "segment_groups": G, "segment_bins": B, "segment_slowest": S,
 *   "strings": [every distinct string of the profiles, once: the dictionary],
 *   "columns": {"pid": series, "totals.cpu_ns": series, "files.path": series, ...}
 *
 * A column holds one value per process (a top-level number, boolean, or string as its index in
 * "strings"; a member of kernel_io, runtime, totals, mpi_collectives), or one per row of the
 * files, trees or renames of all processes in order ("files.path", ...), or of their MPI
 * segments' groups ("mpi_segments.groups.count", ...), the groups' bins
 * ("mpi_segments.groups.bins.bin") and their slowest ("mpi_segments.slowest.ns"); the count
 * columns "files", "trees", "renames", "mpi_segments.groups", "mpi_segments.slowest" (a
 * process's) and "mpi_segments.groups.bins" (a group's) say how many rows of that table each
 * row has; "kernel_io" whether its kernel_io is known (1) or empty (0), "mpi_segments" whether
 * its mpi_segments has members (1) or is {} (0), "mpi_collectives.<kind>" whether it used that
 * kind. Each
 * column is an encoded series (common/series.h) in base64, "" when every value is 0. The reader
 * (profile_ingest) decodes the columns straight into its rows, with the checks of a profile.
 */
#ifndef JS_BUNDLE_COLS_H
#define JS_BUNDLE_COLS_H

#include "bundle_series.h"

#include <stddef.h>
#include <stdint.h>

/* The tables whose rows the columns run over. */
/* The tables whose rows the columns run over: the processes; their files, trees and renames;
 * their MPI segments' groups, the groups' histogram bins, and their slowest segments. */
enum js_cols_table {
    JS_CT_PROC, JS_CT_FILES, JS_CT_TREES, JS_CT_RENAMES, JS_CT_SEG_GROUPS, JS_CT_SEG_BINS, JS_CT_SEG_SLOWEST, JS_CT_COUNT
};
/* The bundle's member that counts a table's rows ("processes", "files", ...). */
extern const char *const js_cols_table_names[JS_CT_COUNT];

/* A column: its name, whether its values are indexes into "strings" (is_str), its table, the
 * member of a profile it comes from ("sync_calls", "runtime", "kernel_io", "files",
 * "mpi_segments.groups", ...) and the field in it (NULL for a member of its own: "pid"; the count
 * of a table's rows: "files"; a presence: "kernel_io"). */
struct js_col_def {
    char name[64];
    int is_str;
    enum js_cols_table table;
    const char *member, *field;
    char type; /* JS_PROFILE_T_*: 's', 'u', 'i', 'b' */
};

/* Every column, in the order js_cols_write writes them; js_cols_index: by name (n bytes), -1
 * when unknown. */
int js_cols_count(void);
const struct js_col_def *js_cols_def(int c);
int js_cols_index(const char *name, size_t n);

/* Decode a column's base64 text (n bytes) holding rows values into out. buf: scratch of
 * JS_SERIES_MAX_BYTES(rows) bytes. 0, or -1 when it is not base64 or not a series of rows values. */
int js_cols_decode(const char *text, size_t n, size_t rows, int64_t *out, unsigned char *buf);

struct js_cols;

struct js_cols *js_cols_new(void);
void js_cols_reset(struct js_cols *c);
void js_cols_free(struct js_cols *c);
size_t js_cols_processes(const struct js_cols *c);
/* Rows of all its tables (processes, files, trees, renames): what it holds in memory. */
size_t js_cols_rows(const struct js_cols *c);

/* One profile's JSON text (as the writer makes it for a bundle: no slices). 0, -1 when out of
 * memory or when the text is not a profile of the format's members (nothing of it taken). */
int js_cols_add(struct js_cols *c, const char *text, size_t n);

/* The members listed above, without braces ("processes": ..., "mpi_segments": [...]), through
 * emit. 0, -1 when out of memory. */
int js_cols_write(const struct js_cols *c, js_fold_emit_fn emit, void *ctx);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A bundle of version 3 (common/bundle_cols.h) read: its columns decoded, its form checked
 * (cols_read.c); the values are read in place, so that memory stays within the file's size
 * whatever row counts a forged bundle claims. Used by the checks (cols_check.c) and --dump
 * (cols_dump.c). No I/O here.
 */
#ifndef PI_COLS_READ_H
#define PI_COLS_READ_H

#include "bundle_cols.h"
#include "validate.h"

struct pi_col {
    int present;
    unsigned w;               /* bytes a value; 0: each is base */
    uint64_t base;
    const unsigned char *p;   /* rows x w bytes */
};

/* The tables counted by a column of another's rows: files, trees, renames, segment groups and
 * slowest per process, bins per segment group. */
enum pi_cols_rel { PI_REL_FILES, PI_REL_TREES, PI_REL_RENAMES, PI_REL_SEG_GROUPS, PI_REL_SEG_SLOWEST, PI_REL_SEG_BINS, PI_REL_COUNT };

struct pi_cols {
    size_t rows[JS_CT_COUNT];
    struct pi_col *col;       /* js_cols_count() of them */
    const json_t *strings;
    size_t nstr;
    /* per row of the counting table (a process; a segment group for the bins): its first row in
     * the counted one, and one more: first[rel][i] .. first[rel][i + 1] - 1 */
    size_t *first[PI_REL_COUNT];
    unsigned char *bytes;     /* the decoded columns */
};

/* Read b's columns: PI_OK, or PI_INVALID with the reason (the bundle refused whole). */
int pi_cols_read(struct pi_cols *c, const json_t *b, char *reason, size_t size);
void pi_cols_free(struct pi_cols *c);

/* The processes of a bundle of version 3 read by pi_cols_read, checked as pi_profile_add checks
 * a profile and added (cols_check.c): PI_OK, or the first failure with the reason ("profile N of
 * the bundle: ...": that process refused alone, the others added). *count as pi_bundle_add. */
int pi_cols_add(struct pi_step *st, const struct pi_conf *conf, const struct pi_cols *c, int *count, char *reason, size_t size);

/* Check and add process i's "mpi_segments" (cols_segments.c; ingest_segments.c's for a profile):
 * PI_OK, or PI_INVALID with the reason. */
int pi_cols_segments_check(const struct pi_cols *c, size_t i, char *reason, size_t size);
void pi_cols_segments_add(struct pi_step *st, const struct pi_cols *c, size_t i, int64_t rank);
/* The value of column k at row r, as JSON (NULL when the column is absent), and the present
 * columns "prefix.<field>" of row r of table t, as an object (--dump; cols_read.c). */
json_t *pi_cols_value(const struct pi_cols *c, int k, size_t r);
json_t *pi_cols_object_of(const struct pi_cols *c, const char *prefix, enum js_cols_table t, size_t r);
/* Process i's "mpi_segments" as the object it was (--dump). */
json_t *pi_cols_segments_json(const struct pi_cols *c, size_t i);

/* The column of this name, or -1 (names of common/bundle_cols.h). */
int pi_col(const char *name);

static inline int64_t pi_col_at(const struct pi_cols *c, int k, size_t row)
{
    const struct pi_col *x = &c->col[k];
    uint64_t d = 0;
    for (unsigned i = 0; i < x->w; i++)
        d = d << 8 | x->p[row * x->w + i];
    return (int64_t)(x->base + d);
}

/* The string a string column holds at row (its length into *n), checked by pi_cols_read. */
const char *pi_col_str(const struct pi_cols *c, int k, size_t row, size_t *n);

#endif

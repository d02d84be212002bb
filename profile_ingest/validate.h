/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Validation of what the spool holds against the one definition of each format
 * (common/record_format.h, common/profile_format.h: validate.c, its bounds ingest_bounds.c),
 * and the reading of one step record's profiles and bundles into its step (aggregate.c,
 * cols_check.c; the step type itself: ingest_step.h). No I/O here: unit-testable. */
#ifndef PI_VALIDATE_H
#define PI_VALIDATE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "bundle_series.h"
#include "ingest_conf.h"
#include "profile_format.h"
#include "record_format.h"
#include "ingest_step.h"

enum pi_check { PI_OK = 0, PI_INVALID = -1, PI_UNKNOWN_VERSION = 1 };

/* Write the reason a check failed into reason (size bytes); returns PI_INVALID. */
int pi_invalid(char *reason, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define PI_MERGE_MIN 4096

/* How far a profile's times may lie outside its step record's span. */
#define PI_PROFILE_SLACK_NS (60LL * 1000000000LL)
/* a system call takes > 50 ns: 4096 threads make < 10^11 a second */
#define PI_CALLS_PER_SECOND_MAX 1e11

/* The most a node does of unit ("bytes", "calls", "ns") in a second, CPU time when is_cpu
 * (node_cpus_max, node_bytes_per_second_max; validate.c), and that bound over seconds in words
 * ("the most a node moves in 4 s (node_bytes_per_second_max)"). */
double pi_node_rate(const struct pi_conf *conf, const char *unit, int is_cpu);
void pi_node_rate_words(const struct pi_conf *conf, const char *unit, int is_cpu, double seconds, char *out, size_t size);

/* a + b, at INT64_MAX (INT64_MIN) rather than wrapping */
static inline int64_t pi_sat_add(int64_t a, int64_t b)
{
    int64_t s;
    return __builtin_add_overflow(a, b, &s) ? (b > 0 ? INT64_MAX : INT64_MIN) : s;
}

/* Take a checked profile's slices (ncols values a row) and totals into the step-node's budget
 * when the sums with them stay within what one node can do (budget.c): PI_OK, or PI_INVALID with
 * the reason (nothing taken). */
int pi_budget_take(struct pi_step *st, const struct pi_conf *conf, const json_t *p, int ncols, char *reason, size_t size);
/* The same for the n slices of a bundle's series (their sums over its processes). */
int pi_budget_take_slices(struct pi_step *st, const struct pi_conf *conf, const struct pi_slice *s, size_t n, char *reason,
                          size_t size);

/* A version-2 bundle's "series" (common/bundle_series.h) into the step-node's slices when it is
 * well formed, within the step's slices and within the step-node's budget: PI_OK, or PI_INVALID
 * with the reason (nothing of it taken). node_series.c */
int pi_series_take(struct pi_step *st, const struct pi_conf *conf, const json_t *series, char *reason, size_t size);
/* Chunk c of a series decoded into dense (JS_SERIES_CHUNK rows of PI_SERIES_ROW values:
 * processes, the sums, then min, max and max_pid of each JS_SPREAD_METRICS), its first slice and
 * length into *first and *n; buf holds JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK). Checks the form
 * only (pi_series_take checks the values). PI_OK, or PI_INVALID with the reason. */
#define PI_SERIES_ROW (JS_FOLD_COLS + 3 * JS_SPREAD_COUNT)
int pi_series_chunk_decode(const json_t *chunk, size_t c, int64_t *first, int64_t *n, int64_t *dense, unsigned char *buf,
                           char *reason, size_t size);
/* profile_ingest --dump FILE: the file as readable JSON on stdout (bundle_dump.c); exit status. */
int pi_dump(const char *path);
void pi_budget_free(struct pi_budget *b);

/* Parse JSON text (len bytes, no NUL needed); NULL with the reason set. */
json_t *pi_json_parse(const char *text, size_t len, char *reason, size_t size);

/* Check a job or step record against its field table.  PI_OK, PI_INVALID or
 * PI_UNKNOWN_VERSION, with the reason set for the last two. */
int pi_record_check(const json_t *r, int is_step, char *reason, size_t size);

/* Validate one profile and, when it is good, add it to the step: PI_OK, or PI_INVALID /
 * PI_UNKNOWN_VERSION with the reason set (nothing of it added).  Versions
 * JS_PROFILE_VERSION_MIN..JS_PROFILE_VERSION are read; a version 1 profile has no exit_code,
 * signal and missing: its process gets -1, 0 and "". */
int pi_profile_add(struct pi_step *st, const struct pi_conf *conf, const json_t *p, char *reason, size_t size);

/* The checks of pi_profile_add, adding nothing: PI_OK, or PI_INVALID / PI_UNKNOWN_VERSION
 * with the reason set. */
int pi_profile_check(const struct pi_step *st, const struct pi_conf *conf, const json_t *p, char *reason, size_t size);

/* Values in a slice row of a profile of this version (the kernel's counts from version 5). */
int pi_slice_cols_of(json_int_t version);

/* Is p a bundle of profiles (jobscreen-collect's output, JS_PROFILE_BUNDLE_FORMAT_NAME)? */
int pi_is_bundle(const json_t *p);

/* Validate and add every profile of a bundle; *count grows by the number of profiles and
 * must stay within conf->max_profiles. PI_OK, or the first failure with the reason naming
 * the profile (the good ones are added all the same).  A bundle's optional "unrecorded"
 * ({"processes": N >= 1, "reason": at most PI_UNRECORDED_REASON_MAX bytes}) adds N to
 * st->unrecorded and keeps the first reason; a malformed one (or a wrong version or
 * profiles list) refuses the whole bundle: nothing of it is added. */
int pi_bundle_add(struct pi_step *st, const struct pi_conf *conf, const json_t *b, int *count, char *reason, size_t size);

/* The checks of a bundle's own members (version, "profiles", "unrecorded", the last within
 * what st may still count), before pi_bundle_add adds any profile: PI_OK with *unrecorded and
 * *unrecorded_reason (0 and NULL when it has none), or PI_INVALID with the reason set. */
int pi_bundle_check(const struct pi_step *st, const json_t *b, int64_t *unrecorded, const char **unrecorded_reason,
                    char *reason, size_t size);

/* MPI segments (ingest_segments.c): check a version 6 profile's "mpi_segments" (PI_OK, or
 * PI_INVALID with the reason set), and add a checked one into the step-node's. */
int pi_segments_check(const json_t *p, char *reason, size_t size);
void pi_segments_add(struct pi_step *st, const json_t *p);
/* ingest_segments.c: one process's segment group and slowest segments merged into the
 * step-node's (both bundle readers use them) */
struct pi_seg_group *pi_seg_group_merge(struct pi_step *st, const char *sig, const char *boundary, int64_t count,
                                        int64_t sum_ns, int64_t min_ns, int64_t max_ns);
void pi_seg_slow_add(struct pi_step *st, const struct pi_seg_slow *e);

/* The check of validate.c for a value no node could produce: value of what (in where) over
 * seconds at the rate of unit (CPU time when is_cpu): 0, or -1 with the reason. */
int pi_plausible(const struct pi_conf *conf, const char *where, const char *what, const char *unit, int is_cpu,
                 int64_t value, double seconds, char *reason, size_t size);
/* How a process ended, as a profile of version 2 or later says it (both bundle readers): its
 * signal a signal number exactly when end is "signal", its exit status, its "missing" of
 * missing_len bytes within PI_MISSING_MAX. PI_OK, or PI_INVALID with the reason. */
int pi_end_check(const char *end, int64_t sig, int64_t code, size_t missing_len, char *reason, size_t size);
/* The profile version that added a member (section "": the top level, else "files",
 * "runtime"); 1 for those of the first. */
json_int_t pi_field_since(const char *section, const char *name);
/* A profile's totals (JS_M_COUNT values) into the step-node's budget (pi_budget_take). */
int pi_budget_take_totals(struct pi_step *st, const struct pi_conf *conf, const int64_t *tot, char *reason, size_t size);

/* The processes of a bundle of version 3 as profiles (a JSON array, for --dump), or NULL with
 * the reason. */
json_t *pi_cols_profiles(const json_t *b, char *reason, size_t size);

/* Name checks for spool entries.  pi_parse_step_record_name: "step.<step>.<node>.json" into
 * step and node (0), -1 when not such a name.  pi_profile_name_matches: 1 when name is
 * "<step>.<node>.<id>.json" with id made of [0-9A-Za-z_-]. */
int pi_parse_step_record_name(const char *name, char *step, size_t stepsize, char *node, size_t nodesize);
int pi_profile_name_matches(const char *name, const char *step, const char *node);

#endif

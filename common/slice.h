/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Time slices aligned across the whole cluster: slice = floor(wall-clock seconds / length).
 * Every part (profiler, ingest, web) computes slices through these two functions so that the
 * slices of different jobs on different nodes line up.
 */
#ifndef JS_SLICE_H
#define JS_SLICE_H

#include <stdint.h>

#define JS_SLICE_DEFAULT_SECONDS 4
#define JS_SLICE_MIN_SECONDS 1
#define JS_SLICE_MAX_SECONDS 3600

/* Slice index of a wall-clock time given in nanoseconds since the epoch. */
int64_t js_slice_of_ns(int64_t epoch_ns, int32_t slice_seconds);

/* Slice length from a string such as the environment's: the default when NULL or empty,
 * -1 when it is not a whole number of seconds within the bounds above. */
int32_t js_slice_parse_seconds(const char *text);

#endif

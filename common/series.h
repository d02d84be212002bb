/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-slice series as the database stores them (docs/schema.md, "Series"): the values of one
 * metric over a run of consecutive slices, packed with a frame of reference. Layout:
 *
 *   byte 0      w: bytes per value, 0..8 (0: every value equals the base)
 *   bytes 1-8   base: the smallest value, a big-endian signed 64-bit integer
 *   then        n values of w bytes each, big-endian, unsigned: value - base
 *
 * A series whose values are all zero is not stored (SQL NULL). The length n is not in the
 * encoding; the row that holds it says how many slices it covers. SQL has the same codec
 * (sql/functions/js_data.series_encode.sql, js_data.series_decode.sql) for views and data
 * conversions; the ingest and the CGI use this one.
 */
#ifndef JS_SERIES_H
#define JS_SERIES_H

#include <stddef.h>
#include <stdint.h>

/* Slices per stored chunk (one hour at 4 s slices); partitions hold whole chunks. */
#define JS_SERIES_CHUNK 900
#define JS_SERIES_HEADER 9
/* Largest encoding of n values. */
#define JS_SERIES_MAX_BYTES(n) (JS_SERIES_HEADER + 8 * (size_t)(n))

/* First slice of the chunk that holds slice s. */
int64_t js_series_chunk_of(int64_t slice);

/* Encode n values v[0], v[stride], ... into out (JS_SERIES_MAX_BYTES(n) bytes); returns the
 * length, 0 when every value is 0 (store NULL). Values must not be negative. */
size_t js_series_encode(const int64_t *v, size_t n, size_t stride, unsigned char *out);

/* Decode len bytes into n values, added to out[0], out[stride], ... (so that several series
 * sum in place; saturating at INT64_MAX, and *saturated counts the values that did). len 0
 * adds nothing. Returns 0, or -1 when the bytes are not a series of n values. */
int js_series_add(const unsigned char *b, size_t len, size_t n, int64_t *out, size_t stride, long *saturated);

/* Add the part of a stored series that lies in a window of slices: the series (len bytes) covers
 * n slices from first, the window win_n slices from win_first, added to out[0], out[stride], ...
 * (saturating as js_series_add); tmp holds n values when the series overhangs the window.
 * Returns 0, or -1 when the bytes are not a series of n values. */
int js_series_add_window(const unsigned char *b, size_t len, int64_t first, size_t n, int64_t win_first,
                         size_t win_n, int64_t *out, size_t stride, int64_t *tmp, long *saturated);

/* A bytea as PostgreSQL prints it in text results ("\\x" and hex digits) into out (cap
 * bytes): the length, -1 when it is not one or does not fit. */
long js_series_unhex(const char *text, unsigned char *out, size_t cap);

#endif

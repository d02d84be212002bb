/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one reader of jobscreen's configuration: files of "key = value" lines and the values in
 * them (booleans, whole numbers, sizes, lists). The rules, for every file and for the plugin's
 * plugstack.conf arguments: docs/architecture.md, "Configuration files".
 *
 * The value functions allocate nothing and never exit: the plugin calls them inside
 * slurmstepd. Only the line parser allocates (a copy of the text). */
#ifndef JS_KVCONF_H
#define JS_KVCONF_H

#include <stddef.h>

/* Largest configuration file read: far beyond any real one, small enough to read whole. */
#define JS_KV_FILE_MAX (1 << 20)

/* Called with each line's key and value, both trimmed (the value may be empty). 0, or -1 with
 * the reason in why, without position ("unknown key \"x\""): the parser adds file and line. */
typedef int (*js_kv_set_fn)(void *ctx, const char *key, const char *value, char *why, size_t whysize);

/* Parse text of key = value lines, calling set for each, stopping at the first error. 0, or -1
 * with "NAME:LINE: reason" in err ("line LINE: reason" when name is NULL). */
int js_kv_parse_text(const char *text, const char *name, js_kv_set_fn set, void *ctx, char *err, size_t errsize);

/* Read the file at path (at most JS_KV_FILE_MAX bytes, no NUL byte) and parse it as
 * js_kv_parse_text does. 0, or -1 with err; when the file could not be opened or read, err is
 * "PATH: strerror" and errno says why (errno is 0 for any other error), so that a caller may
 * take a missing optional file as no error. */
int js_kv_parse_file(const char *path, js_kv_set_fn set, void *ctx, char *err, size_t errsize);

/* 1 for yes, true, on, 1; 0 for no, false, off, 0 (any case); -1 for anything else. */
int js_kv_bool(const char *value);

/* A whole number in decimal (an optional sign, then digits only) from lo to hi: 0 with *out,
 * or -1. */
int js_kv_int(const char *value, long long lo, long long hi, long long *out);

/* A size in bytes: digits, then optionally one of K, M, G, T in either case (binary: 1K is
 * 1024), from lo to hi: 0 with *out, or -1. */
int js_kv_size(const char *value, long long lo, long long hi, long long *out);

/* Lists: elements separated by commas, blanks or both ("a, b c"). The next element at *cursor
 * (its length in *len; not NUL-terminated), *cursor moved past it; NULL when none is left. */
const char *js_kv_list_next(const char **cursor, size_t *len);

/* 1 when the list has an empty element: a comma first or last, or two commas with only blanks
 * between ("a,,b"). Callers that take such a list as a typo refuse it; the others skip it. */
int js_kv_list_has_empty(const char *value);

#endif

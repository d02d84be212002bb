/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include "slice.h"

#include <errno.h>
#include <stdlib.h>

int64_t js_slice_of_ns(int64_t epoch_ns, int32_t slice_seconds)
{
    const int64_t len_ns = (int64_t)slice_seconds * 1000000000LL;
    int64_t q = epoch_ns / len_ns;
    /* floor, not truncation, for times before the epoch */
    if (epoch_ns % len_ns != 0 && epoch_ns < 0)
        q--;
    return q;
}

int32_t js_slice_parse_seconds(const char *text)
{
    if (text == NULL || *text == '\0')
        return JS_SLICE_DEFAULT_SECONDS;
    char *end = NULL;
    int saved = errno;
    errno = 0;
    long v = strtol(text, &end, 10);
    int bad = errno != 0 || end == text || *end != '\0';
    errno = saved;
    if (bad || v < JS_SLICE_MIN_SECONDS || v > JS_SLICE_MAX_SECONDS)
        return -1;
    return (int32_t)v;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The terminal report's words and units (report.h): sizes, durations, times, percentages,
 * strings made safe for a terminal and wrapped to it; reading numbers and strings of a reply. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "report_parts.h"

/* ---- units and cleaning -------------------------------------------------------------------- */

void jsr_bytes(char *buf, size_t n, double bytes)
{
    static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    int u = 0;
    while (fabs(bytes) >= 1024 && u < 6) {
        bytes /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, n, "%.0f B", bytes);
    else
        snprintf(buf, n, "%.1f %s", bytes, unit[u]);
}

void jsr_duration(char *buf, size_t n, double seconds)
{
    /* below a second in ms, below 10 s to a tenth unless whole (Slurm's times are whole
     * seconds): 0.18 s of CPU is not "0 s" */
    int tenth = seconds >= 0.9995 && seconds < 9.95 && fabs(seconds - round(seconds)) >= 0.05;
    if (seconds > 0 && seconds < 0.0005)
        snprintf(buf, n, "< 1 ms");
    else if (seconds > 0 && seconds < 0.9995)
        snprintf(buf, n, "%.0f ms", seconds * 1000);
    else if (tenth)
        snprintf(buf, n, "%.1f s", seconds);
    if ((seconds > 0 && seconds < 0.9995) || tenth)
        return;
    long long s = (long long)llround(seconds < 0 ? 0 : seconds);
    if (s < 60)
        snprintf(buf, n, "%lld s", s);
    else if (s < 3600)
        snprintf(buf, n, "%lld min %02lld s", s / 60, s % 60);
    else if (s < 86400)
        snprintf(buf, n, "%lld h %02lld min", s / 3600, s % 3600 / 60);
    else
        snprintf(buf, n, "%lld d %02lld h", s / 86400, s % 86400 / 3600);
}

void jsr_clock(char *buf, size_t n, double seconds)
{
    long long s = (long long)llround(seconds < 0 ? 0 : seconds);
    if (s >= 86400)
        snprintf(buf, n, "%lld-%02lld:%02lld:%02lld", s / 86400, s % 86400 / 3600, s % 3600 / 60, s % 60);
    else
        snprintf(buf, n, "%02lld:%02lld:%02lld", s / 3600, s % 3600 / 60, s % 60);
}

void jsr_time(char *buf, size_t n, double epoch)
{
    time_t t = (time_t)floor(epoch);
    struct tm tm;
    if (!isfinite(epoch) || !localtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M:%S", &tm))
        snprintf(buf, n, "-");
}

void jsr_percent(char *buf, size_t n, double part, double whole)
{
    if (!(whole > 0) || !isfinite(part))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.1f%%", 100.0 * part / whole);
}

/* the length of the UTF-8 character at s (1 for a byte that starts none) */
static size_t char_len(const unsigned char *s)
{
    size_t k = *s < 0x80 ? 1 : (*s & 0xE0) == 0xC0 ? 2 : (*s & 0xF0) == 0xE0 ? 3 : (*s & 0xF8) == 0xF0 ? 4 : 1;
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 1;
    return k;
}

/* one character of s cleaned into out (at most 4 bytes): '?' for a control character */
static size_t clean_char(const unsigned char *s, size_t k, char *out)
{
    bool control = (k == 1 && (s[0] < 0x20 || s[0] == 0x7F || s[0] >= 0x80)) ||
                   (k == 2 && s[0] == 0xC2 && s[1] >= 0x80 && s[1] <= 0x9F);
    if (control) {
        out[0] = '?';
        return 1;
    }
    memcpy(out, s, k);
    return k;
}

void jsr_clean(char *buf, size_t n, const char *str, int width, int keep_end)
{
    const unsigned char *s = (const unsigned char *)(str ? str : "");
    if (n == 0)
        return;
    /* the characters of s, counted */
    int chars = 0;
    for (const unsigned char *p = s; *p; p += char_len(p))
        chars++;
    int skip = 0, take = chars;
    if (width > 0 && chars > width) {
        take = width - 1; /* and the '~' */
        skip = keep_end ? 0 : chars - take;
    }
    size_t o = 0;
    if (width > 0 && chars > width && !keep_end && o + 1 < n)
        buf[o++] = '~';
    int i = 0;
    for (const unsigned char *p = s; *p && i < skip + take; i++) {
        size_t k = char_len(p);
        char c[4];
        size_t m = clean_char(p, k, c);
        p += k;
        if (i < skip)
            continue;
        if (o + m >= n)
            break;
        memcpy(buf + o, c, m);
        o += m;
    }
    if (width > 0 && chars > width && keep_end && o + 1 < n)
        buf[o++] = '~';
    buf[o] = '\0';
}

void jsr_wrap(FILE *out, int col, int indent, const char *text)
{
    const int width = JSR_WIDTH - 1;
    const char *p = text;
    for (;;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        /* the characters that fit, and the last space among them */
        const char *q = p, *space = NULL;
        int c = col;
        while (*q && c < width) {
            if (*q == ' ')
                space = q;
            q += char_len((const unsigned char *)q);
            c++;
        }
        const char *end = !*q || *q == ' ' || !space ? q : space;
        fwrite(p, 1, (size_t)(end - p), out);
        p = end;
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        fprintf(out, "\n%*s", indent, "");
        col = indent;
    }
    fputc('\n', out);
}

/* ---- reading the reply (report_parts.h) ------------------------------------------------------ */

double jsr_num(const json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *jsr_str(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

const char *const jsr_rt_label[RT_N] = { "compute", "MPI", "I/O", "CPU wait", "idle" };

double jsr_elapsed_of(const json_t *o, time_t now)
{
    double start = jsr_num(o, "start"), end = jsr_num(o, "end"), e = jsr_num(o, "elapsed");
    if (!isfinite(start))
        return NAN;
    if (isfinite(end))
        return isfinite(e) && e > 0 ? e : end - start;
    return (double)now - start;
}

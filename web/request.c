/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The request: query-string decoding and strict typed parameters. Anything not exactly as
 * documented in docs/api.md is a 400 with a message naming the parameter. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jsweb.h"

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* Decode one component of length n into out (size outlen). 0, or -1 on a bad escape, a
 * control character (incl. NUL) or overflow. */
static int urldecode(const char *in, size_t n, char *out, size_t outlen)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)in[i];
        if (c == '+')
            c = ' ';
        else if (c == '%') {
            if (i + 2 >= n)
                return -1;
            int h = hexval(in[i + 1]), l = hexval(in[i + 2]);
            if (h < 0 || l < 0)
                return -1;
            c = h * 16 + l;
            i += 2;
        }
        if (c < 0x20 || c == 0x7f)
            return -1;
        if (o + 1 >= outlen)
            return -1;
        out[o++] = (char)c;
    }
    out[o] = '\0';
    return 0;
}

int jsw_parse_query(struct jsw_request *req, const char *qs, char *err, size_t errlen)
{
    req->n_params = 0;
    if (!qs || !*qs)
        return 0;
    if (strlen(qs) > JSW_QUERY_STRING_MAX) {
        snprintf(err, errlen, "query string longer than %d characters", JSW_QUERY_STRING_MAX);
        return -1;
    }
    const char *p = qs;
    while (*p) {
        size_t len = strcspn(p, "&");
        if (len > 0) {
            const char *eq = memchr(p, '=', len);
            size_t nlen = eq ? (size_t)(eq - p) : len;
            struct jsw_param *prm = &req->params[req->n_params];
            if (req->n_params >= JSW_MAX_PARAMS) {
                snprintf(err, errlen, "more than %d parameters", JSW_MAX_PARAMS);
                return -1;
            }
            if (urldecode(p, nlen, prm->name, sizeof prm->name) || !prm->name[0]) {
                snprintf(err, errlen, "a parameter name is empty, too long or badly encoded");
                return -1;
            }
            for (const char *c = prm->name; *c; c++)
                if (!(isalnum((unsigned char)*c) || *c == '_')) {
                    snprintf(err, errlen, "parameter names are letters, digits and '_'");
                    return -1;
                }
            const char *v = eq ? eq + 1 : p + len;
            size_t vlen = eq ? len - nlen - 1 : 0;
            if (urldecode(v, vlen, prm->value, sizeof prm->value)) {
                snprintf(err, errlen,
                         "parameter '%s': value too long (max %d bytes), badly encoded or "
                         "holding a control character",
                         prm->name, JSW_PARAM_VALUE_MAX - 1);
                return -1;
            }
            if (jsw_param(req, prm->name)) {
                snprintf(err, errlen, "parameter '%s' given twice", prm->name);
                return -1;
            }
            req->n_params++;
        }
        p += len;
        if (*p)
            p++;
    }
    return 0;
}

int jsw_parse_endpoint(struct jsw_request *req, const char *path_info, char *err, size_t errlen)
{
    const char *name = NULL;
    if (path_info && *path_info && strcmp(path_info, "/") != 0) {
        name = path_info;
        while (*name == '/')
            name++;
    } else {
        name = jsw_param(req, "q");
    }
    if (!name || !*name) {
        snprintf(err, errlen, "no endpoint: use PATH_INFO (jobscreen.cgi/workflows) or q=");
        return -1;
    }
    size_t n = strlen(name);
    if (n >= sizeof req->endpoint) {
        snprintf(err, errlen, "no such endpoint");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (!(islower((unsigned char)name[i]) || name[i] == '_')) {
            snprintf(err, errlen, "no such endpoint");
            return -1;
        }
    memcpy(req->endpoint, name, n + 1);
    return 0;
}

const char *jsw_param(const struct jsw_request *req, const char *name)
{
    for (int i = 0; i < req->n_params; i++)
        if (!strcmp(req->params[i].name, name))
            return req->params[i].value;
    return NULL;
}

static int parse_i64(const char *s, int64_t *out)
{
    if (!*s || !(isdigit((unsigned char)*s) || (*s == '-' && isdigit((unsigned char)s[1]))))
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

int jsw_param_int(const struct jsw_request *req, const char *name, int64_t min, int64_t max,
                  int64_t *out, bool *present, char *err, size_t errlen)
{
    const char *v = jsw_param(req, name);
    if (present)
        *present = v != NULL;
    if (!v)
        return 0;
    int64_t n;
    if (parse_i64(v, &n) || n < min || n > max) {
        snprintf(err, errlen, "parameter '%s': expected an integer from %lld to %lld", name,
                 (long long)min, (long long)max);
        return -1;
    }
    *out = n;
    return 0;
}

int jsw_parse_time(const char *s, int64_t *out)
{
    int64_t n;
    if (parse_i64(s, &n) == 0) {
        if (n < 0 || n > 253402300799LL) /* up to 9999-12-31 */
            return -1;
        *out = n;
        return 0;
    }
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    const char *end = strptime(s, "%Y-%m-%d", &tm);
    if (!end)
        return -1;
    if (*end == 'T' || *end == ' ') {
        const char *e2 = strptime(end + 1, "%H:%M:%S", &tm);
        if (!e2)
            e2 = strptime(end + 1, "%H:%M", &tm);
        if (!e2)
            return -1;
        end = e2;
    }
    if (*end == 'Z')
        end++;
    if (*end)
        return -1;
    if (tm.tm_year < 70 || tm.tm_year > 8099)
        return -1;
    time_t t = timegm(&tm);
    if (t == (time_t)-1)
        return -1;
    *out = (int64_t)t;
    return 0;
}

int jsw_param_time(const struct jsw_request *req, const char *name, int64_t *out, bool *present,
                   char *err, size_t errlen)
{
    const char *v = jsw_param(req, name);
    if (present)
        *present = v != NULL;
    if (!v)
        return 0;
    if (jsw_parse_time(v, out)) {
        snprintf(err, errlen,
                 "parameter '%s': expected seconds since the epoch or an ISO 8601 UTC time "
                 "(2026-11-21T10:00:00Z)",
                 name);
        return -1;
    }
    return 0;
}

int jsw_param_enum(const struct jsw_request *req, const char *name, const char *const *allowed,
                   const char **out, char *err, size_t errlen)
{
    const char *v = jsw_param(req, name);
    if (!v)
        return 0;
    for (const char *const *a = allowed; *a; a++)
        if (!strcmp(v, *a)) {
            *out = *a;
            return 0;
        }
    size_t o = (size_t)snprintf(err, errlen, "parameter '%s': expected one of", name);
    for (const char *const *a = allowed; *a && o < errlen; a++)
        o += (size_t)snprintf(err + o, errlen - o, " %s", *a);
    return -1;
}

int jsw_param_text(const struct jsw_request *req, const char *name, const char **out,
                   char *err, size_t errlen)
{
    const char *v = jsw_param(req, name);
    if (!v)
        return 0;
    /* urldecode already refused control characters; refuse invalid UTF-8 too, so that the
     * database never sees a byte sequence it would reject with a 500. */
    json_t *probe = json_string(v);
    if (!probe) {
        snprintf(err, errlen, "parameter '%s': not valid UTF-8", name);
        return -1;
    }
    json_decref(probe);
    *out = v;
    return 0;
}

bool jsw_step_valid(const char *step)
{
    if (!step || !*step)
        return false;
    if (!strcmp(step, "batch") || !strcmp(step, "extern") || !strcmp(step, "interactive"))
        return true;
    size_t n = strlen(step);
    if (n > 10)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)step[i]))
            return false;
    return !(n > 1 && step[0] == '0') && strtoll(step, NULL, 10) < 4294967040LL;
}

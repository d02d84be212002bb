/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The reply: a CGI header block and a JSON body, errors included; gzipped when the client
 * accepts it and the body is not tiny; a 200 carries a weak ETag of its JSON, and a request
 * whose If-None-Match names it gets 304 without the body. Written to the request's output
 * (stdout for a plain CGI, the FastCGI request's stream otherwise) in one piece, with its
 * Content-Length. */
#include "config.h"

#include <strings.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "jsweb.h"

/* the request being answered: where its reply goes, whether it may be gzipped, and the
 * entity tags its client holds (If-None-Match) */
static const struct jsw_io *reply_io;
static bool reply_gzip;
static char reply_inm[1024];

void jsw_reply_to(const struct jsw_io *io, const char *accept_encoding, const char *if_none_match)
{
    reply_io = io;
    reply_gzip = jsw_accepts_gzip(accept_encoding);
    snprintf(reply_inm, sizeof reply_inm, "%s", if_none_match ? if_none_match : "");
}

/* W/"<16 hex digits>": a 64-bit hash of the JSON before any gzip, so that the gzipped and the
 * plain form of one reply have one tag (weak: equal content, not equal bytes). Eight bytes a
 * step, each mixed by a multiply and a rotation, the length and a final avalanche (MurmurHash3's
 * fmix64) last: FNV-1a a byte at a time was a tenth of the CGI's time for a 430 kB reply. */
void jsw_etag(const char *body, size_t n, char out[JSW_ETAG_LEN])
{
    const uint64_t k = 0x9e3779b97f4a7c15ULL;
    uint64_t h = 0xcbf29ce484222325ULL, w;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, body + i, 8);
        h = ((h ^ w) * k);
        h = h << 29 | h >> 35;
    }
    w = 0;
    memcpy(&w, body + i, n - i);
    h = (h ^ w ^ (uint64_t)n) * k;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb53fe1a85ec3ULL;
    h ^= h >> 33;
    snprintf(out, JSW_ETAG_LEN, "W/\"%016llx\"", (unsigned long long)h);
}

/* RFC 9110 13.1.2: "*", or a list of entity tags compared weakly (W/ ignored on both sides) */
bool jsw_etag_matches(const char *if_none_match, const char *etag)
{
    if (!if_none_match || !*if_none_match)
        return false;
    const char *want = strncmp(etag, "W/", 2) == 0 ? etag + 2 : etag;
    size_t wn = strlen(want);
    for (const char *p = if_none_match; *p;) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (*p == '*')
            return true;
        if (strncmp(p, "W/", 2) == 0)
            p += 2;
        if (*p != '"')
            break; /* not a list of tags: nothing matches */
        const char *end = strchr(p + 1, '"');
        if (!end)
            break;
        if ((size_t)(end + 1 - p) == wn && memcmp(p, want, wn) == 0)
            return true;
        p = end + 1;
    }
    return false;
}

/* RFC 9110 12.5.3: codings separated by commas, each with an optional ";q=VALUE"; gzip (or
 * its alias x-gzip) or "*" with a q above 0, unless gzip itself is given q=0. */
bool jsw_accepts_gzip(const char *ae)
{
    if (!ae)
        return false;
    int gzip = -1, star = -1; /* -1 not named, 0 refused, 1 accepted */
    const char *p = ae;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (!*p)
            break;
        const char *tok = p;
        while (*p && *p != ',' && *p != ';' && *p != ' ' && *p != '\t')
            p++;
        size_t n = (size_t)(p - tok);
        double q = 1.0;
        /* parameters up to the next comma; only q counts */
        while (*p && *p != ',') {
            if (*p == ';') {
                p++;
                while (*p == ' ' || *p == '\t')
                    p++;
                if ((p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
                    char *end;
                    q = strtod(p + 2, &end);
                    if (end == p + 2 || q != q)
                        q = 0;
                    p = end;
                    continue;
                }
            }
            p++;
        }
        int ok = q > 0;
        if ((n == 4 && !strncasecmp(tok, "gzip", 4)) || (n == 6 && !strncasecmp(tok, "x-gzip", 6)))
            gzip = ok;
        else if (n == 1 && tok[0] == '*')
            star = ok;
    }
    return gzip == 1 || (gzip == -1 && star == 1);
}

const char *jsw_status_text(int status)
{
    switch (status) {
    case 200: return "OK";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Error";
    }
}

json_t *jsw_error_body(int status, const char *message)
{
    return json_pack("{s:{s:i,s:s}}", "error", "status", status, "message",
                     message ? message : jsw_status_text(status));
}

bool jsw_reply_gzip(void) { return reply_gzip; }

/* gzip (RFC 1952) of n bytes into a malloc'd buffer; NULL when it fails. Level 1 per request:
 * JSON shrinks 5-10 times already, and the CPU is better spent on the next request; a stored
 * reply (keep.c) is compressed once, at level 9. */
unsigned char *jsw_gzip(const char *in, size_t n, int level, size_t *outlen)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    uLong cap = deflateBound(&z, (uLong)n);
    unsigned char *out = malloc(cap);
    if (!out) {
        deflateEnd(&z);
        return NULL;
    }
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_FINISH);
    *outlen = z.total_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(out);
        return NULL;
    }
    return out;
}

static int put(const char *buf, size_t n)
{
    if (reply_io && reply_io->write)
        return reply_io->write(reply_io->ctx, buf, n);
    return fwrite(buf, 1, n, stdout) == n ? 0 : -1;
}

static void reply_not_modified(const char *etag)
{
    char head[512];
    int hn = snprintf(head, sizeof head,
                      "Status: 304 Not Modified\r\n"
                      "ETag: %s\r\n"
                      "Vary: Accept-Encoding\r\n"
                      "Cache-Control: private, no-cache\r\n"
                      "\r\n",
                      etag);
    put(head, (size_t)hn);
    if (!reply_io || !reply_io->write)
        fflush(stdout);
}

/* The header block and the body (gzipped: already compressed) of a reply, in one piece */
static void send_reply(int status, const char *out, size_t n, bool gzipped, const char *etag)
{
    char head[1024];
    int hn = snprintf(head, sizeof head,
                      "Status: %d %s\r\n"
                      "Content-Type: application/json; charset=utf-8\r\n"
                      "Content-Length: %zu\r\n"
                      "%s%s%s%s"
                      "Vary: Accept-Encoding\r\n"
                      "Cache-Control: %s\r\n"
                      "X-Content-Type-Options: nosniff\r\n"
                      "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n"
                      "%s"
                      "\r\n",
                      status, jsw_status_text(status), n,
                      gzipped ? "Content-Encoding: gzip\r\n" : "",
                      etag[0] ? "ETag: " : "", etag, etag[0] ? "\r\n" : "",
                      /* the browser may keep a user's own reply, and must ask before using it */
                      etag[0] ? "private, no-cache" : "no-store",
                      status == 401 ? "WWW-Authenticate: Basic realm=\"jobscreen\"\r\n" : "");
    if (put(head, (size_t)hn) == 0)
        put(out, n);
    if (!reply_io || !reply_io->write)
        fflush(stdout);
}

/* JSON_ESCAPE_SLASH: "</script>" in a value cannot end a script element if a page ever
 * inlines a reply; Jansson escapes quotes, backslashes and control characters anyway. */
char *jsw_dump(json_t *body, size_t *n)
{
    char *text = body ? json_dumps(body, JSON_COMPACT | JSON_ESCAPE_SLASH | JSON_ENCODE_ANY) : NULL;
    json_decref(body);
    if (!text)
        return NULL;
    /* the body ends with a newline, as it always did */
    *n = strlen(text);
    char *t = realloc(text, *n + 2);
    if (!t) {
        free(text);
        return NULL;
    }
    t[(*n)++] = '\n';
    t[*n] = '\0';
    return t;
}

void jsw_reply(int status, json_t *body)
{
    size_t n = 0;
    char *text = jsw_dump(body, &n);
    jsw_reply_text(text ? status : 500, text, n);
}

void jsw_reply_text(int status, char *text, size_t n)
{
    static const char fallback[] = "{\"error\":{\"status\":500,\"message\":\"could not encode the reply\"}}\n";
    if (!text)
        status = 500;
    const char *out = text ? text : fallback;
    if (!text)
        n = sizeof fallback - 1;
    /* a success has a tag; the client that holds it gets 304 and no body (its copy is this) */
    char etag[JSW_ETAG_LEN] = "";
    if (status == 200) {
        jsw_etag(out, n, etag);
        if (jsw_etag_matches(reply_inm, etag)) {
            reply_not_modified(etag);
            free(text);
            return;
        }
    }
    unsigned char *gz = NULL;
    size_t gzn = 0;
    if (reply_gzip && n >= JSW_GZIP_MIN && (gz = jsw_gzip(out, n, 1, &gzn))) {
        out = (const char *)gz;
        n = gzn;
    }
    send_reply(status, out, n, gz != NULL, etag);
    free(gz);
    free(text);
}

void jsw_reply_error(int status, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    jsw_reply(status, jsw_error_body(status, msg));
}

void jsw_reply_stored(const char *etag, const char *body, size_t n, bool gzipped)
{
    if (jsw_etag_matches(reply_inm, etag)) {
        reply_not_modified(etag);
        return;
    }
    send_reply(200, body, n, gzipped, etag);
}

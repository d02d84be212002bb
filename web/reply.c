/* The reply: a CGI header block and a JSON body, errors included. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "jsweb.h"

const char *jsw_status_text(int status)
{
    switch (status) {
    case 200: return "OK";
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

void jsw_reply(int status, json_t *body)
{
    /* JSON_ESCAPE_SLASH: "</script>" in a value cannot end a script element if a page ever
     * inlines a reply; Jansson escapes quotes, backslashes and control characters anyway. */
    char *text = body ? json_dumps(body, JSON_COMPACT | JSON_ESCAPE_SLASH | JSON_ENCODE_ANY) : NULL;
    if (!text) {
        status = 500;
        text = NULL;
    }
    printf("Status: %d %s\r\n", status, jsw_status_text(status));
    printf("Content-Type: application/json; charset=utf-8\r\n");
    printf("Cache-Control: no-store\r\n");
    printf("X-Content-Type-Options: nosniff\r\n");
    printf("Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n");
    if (status == 401)
        printf("WWW-Authenticate: Basic realm=\"jobscreen\"\r\n");
    printf("\r\n");
    if (text)
        fputs(text, stdout);
    else
        fputs("{\"error\":{\"status\":500,\"message\":\"could not encode the reply\"}}", stdout);
    fputc('\n', stdout);
    fflush(stdout);
    free(text);
    json_decref(body);
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

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jobscreen.cgi: see jsweb.h and docs/api.md.
 *
 * The same binary is a plain CGI (one request per process, as a web server's mod_cgi runs it)
 * or, when started as a FastCGI responder (its standard input a listening socket: lighttpd's
 * mod_fastcgi with bin-path, spawn-fcgi), a loop over requests that keeps its configuration
 * and one database connection (docs/web.md, "FastCGI"). */
#include "config.h"

#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <sys/socket.h>

#include "jsweb.h"

#ifdef HAVE_FCGI
#include <fcgiapp.h>

static int fcgi_write(void *ctx, const char *buf, size_t n)
{
    return FCGX_PutStr(buf, (int)n, (FCGX_Stream *)ctx) == (int)n ? 0 : -1;
}

static int fastcgi(void)
{
    if (FCGX_Init() != 0) {
        fprintf(stderr, "jobscreen.cgi: FastCGI: initialisation failed\n");
        return 1;
    }
    /* a client that went away must not kill the process (the write fails, that is all) */
    signal(SIGPIPE, SIG_IGN);
    /* A long step's slices take megabytes per request: keep them in the heap for the next
     * request instead of mapping, zero-filling (a page fault per 4 kB) and unmapping them each
     * time (a third of a background request's CPU). The heap keeps what the largest request
     * took, a few tens of MB at most (JSW_SLICES_MAX). */
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
    FCGX_Request r;
    if (FCGX_InitRequest(&r, 0, 0) != 0) {
        fprintf(stderr, "jobscreen.cgi: FastCGI: initialisation failed\n");
        return 1;
    }
    struct jsw_server *s = jsw_server_new(true);
    if (!s)
        return 1;
    while (FCGX_Accept_r(&r) >= 0) {
        struct jsw_io io = { .envp = r.envp, .write = fcgi_write, .ctx = r.out };
        jsw_serve_request(s, &io);
        FCGX_Finish_r(&r);
    }
    jsw_server_free(s);
    return 0;
}
#endif

int main(void)
{
#ifdef HAVE_FCGI
    if (!FCGX_IsCGI())
        return fastcgi();
#else
    /* a FastCGI responder's standard input is a listening socket */
    int listening = 0;
    socklen_t len = sizeof listening;
    if (getsockopt(0, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) == 0 && listening) {
        fprintf(stderr, "jobscreen.cgi: started as a FastCGI responder, but this build has no "
                        "FastCGI mode (configure found no libfcgi: install libfcgi-dev and "
                        "build again); run it as a plain CGI\n");
        return 1;
    }
#endif
    jsw_serve();
    return 0;
}

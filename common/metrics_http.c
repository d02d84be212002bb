/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The /metrics responder (metrics_http.h). */
#include "config.h"

#include "metrics_http.h"

#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

struct server {
    int fd;
    js_metrics_render_fn render;
};

static void reply(int fd, const char *status, const char *type, const char *body, size_t len)
{
    char head[256];
    int h = snprintf(head, sizeof head, "HTTP/1.0 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
                     status, type, len);
    if (write(fd, head, (size_t)h) == h && len)
        (void)!write(fd, body, len);
}

/* one request per connection: GET /metrics (HEAD too), anything else 404/405 */
static void *serve(void *arg)
{
    struct server *sv = arg;
    int lfd = sv->fd;
    static char body[65536];
    for (;;) {
        int fd = accept(lfd, NULL, NULL);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            sleep(1);
            continue;
        }
        struct timeval tv = { .tv_sec = 2 };
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        char req[1024];
        ssize_t r = read(fd, req, sizeof req - 1);
        req[r > 0 ? r : 0] = '\0';
        int head = !strncmp(req, "HEAD ", 5);
        if (strncmp(req, "GET ", 4) && !head)
            reply(fd, "405 Method Not Allowed", "text/plain", "GET /metrics\n", 13);
        else if (strncmp(req + (head ? 5 : 4), "/metrics ", 9) && strncmp(req + (head ? 5 : 4), "/metrics\r", 9))
            reply(fd, "404 Not Found", "text/plain", "GET /metrics\n", 13);
        else {
            size_t len = sv->render(body, sizeof body);
            reply(fd, "200 OK", "text/plain; version=0.0.4; charset=utf-8", head ? "" : body, head ? 0 : len);
        }
        close(fd);
    }
    return NULL;
}

int js_metrics_serve(const char *listen_at, js_metrics_render_fn render, char *err, size_t errlen)
{
    char host[256];
    const char *colon = strrchr(listen_at, ':');
    if (!colon || colon == listen_at || (size_t)(colon - listen_at) >= sizeof host || !colon[1]) {
        snprintf(err, errlen, "\"%s\" is not HOST:PORT", listen_at);
        return -1;
    }
    memcpy(host, listen_at, (size_t)(colon - listen_at));
    host[colon - listen_at] = '\0';
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE }, *ai = NULL;
    int e = getaddrinfo(host, colon + 1, &hints, &ai);
    if (e != 0) {
        snprintf(err, errlen, "%s: %s", listen_at, gai_strerror(e));
        return -1;
    }
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol), one = 1;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
        bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 16) < 0) {
        snprintf(err, errlen, "%s: %s", listen_at, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return -1;
    }
    freeaddrinfo(ai);
    struct server *sv = malloc(sizeof *sv);
    if (!sv) {
        snprintf(err, errlen, "out of memory");
        close(fd);
        return -1;
    }
    sv->fd = fd;
    sv->render = render;
    /* the thread blocks every signal: SIGTERM and SIGHUP must reach the daemon's own thread,
     * whose waits they end */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_t t;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&t, &at, serve, sv);
    pthread_attr_destroy(&at);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        snprintf(err, errlen, "no thread: %s", strerror(rc));
        close(fd);
        free(sv);
        return -1;
    }
    return 0;
}

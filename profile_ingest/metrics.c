/* The ingest's metrics (metrics.h): Prometheus text format 0.0.4. */
#include "config.h"

#include "metrics.h"

#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* the lag's histogram buckets, seconds from a step's end to its commit */
static const double lag_le[] = { 1, 5, 15, 60, 300, 900, 3600, 14400 };
#define NLAG (sizeof lag_le / sizeof lag_le[0])

static struct {
    pthread_mutex_t lock;
    long step_records, profiles, slice_rows, quarantined, failed, passes, db_down_passes;
    long backlog, deferred;
    int db_up;
    double last_pass, started;
    long lag_count, lag_bucket[NLAG];
    double lag_sum;
} m = { .lock = PTHREAD_MUTEX_INITIALIZER, .db_up = -1 };

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void pi_metrics_step(double lag_seconds, long profiles, long slice_rows, long quarantined)
{
    pthread_mutex_lock(&m.lock);
    m.step_records++;
    m.profiles += profiles;
    m.slice_rows += slice_rows;
    m.quarantined += quarantined;
    if (lag_seconds >= 0) {
        m.lag_count++;
        m.lag_sum += lag_seconds;
        for (size_t i = 0; i < NLAG; i++)
            m.lag_bucket[i] += lag_seconds <= lag_le[i];
    }
    pthread_mutex_unlock(&m.lock);
}

void pi_metrics_pass(long backlog, long deferred, int db_up, long failed)
{
    pthread_mutex_lock(&m.lock);
    m.passes++;
    m.db_down_passes += !db_up;
    m.backlog = backlog;
    m.deferred = deferred;
    m.db_up = db_up;
    m.failed += failed;
    m.last_pass = now_s();
    pthread_mutex_unlock(&m.lock);
}

#define APPEND(...)                                                                                \
    do {                                                                                           \
        int w_ = snprintf(buf + n, n < size ? size - n : 0, __VA_ARGS__);                          \
        n += w_ > 0 ? (size_t)w_ : 0;                                                              \
    } while (0)

size_t pi_metrics_render(char *buf, size_t size)
{
    size_t n = 0;
    pthread_mutex_lock(&m.lock);
    static const struct {
        const char *name, *type, *help;
    } meta[] = {
        { "jobscreen_ingest_step_records_total", "counter", "step records committed to the database" },
        { "jobscreen_ingest_profiles_total", "counter", "profiles loaded with them" },
        { "jobscreen_ingest_slice_rows_total", "counter", "per-slice rows loaded with them" },
        { "jobscreen_ingest_quarantined_files_total", "counter", "files refused and kept in the quarantine with the reason" },
        { "jobscreen_ingest_errors_total", "counter", "step records that failed (kept in the spool for a later pass)" },
        { "jobscreen_ingest_passes_total", "counter", "passes over the spool" },
        { "jobscreen_ingest_database_down_passes_total", "counter", "passes that found the database unavailable" },
    };
    const long counters[] = { m.step_records, m.profiles, m.slice_rows, m.quarantined, m.failed, m.passes, m.db_down_passes };
    for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++)
        APPEND("# HELP %s %s\n# TYPE %s %s\n%s %ld\n", meta[i].name, meta[i].help, meta[i].name, meta[i].type,
               meta[i].name, counters[i]);
    APPEND("# HELP jobscreen_ingest_backlog_step_records step records waiting in the spool after the last pass\n"
           "# TYPE jobscreen_ingest_backlog_step_records gauge\njobscreen_ingest_backlog_step_records %ld\n", m.backlog);
    APPEND("# HELP jobscreen_ingest_deferred_step_records step records the pass budgets left for the next pass\n"
           "# TYPE jobscreen_ingest_deferred_step_records gauge\njobscreen_ingest_deferred_step_records %ld\n", m.deferred);
    if (m.db_up >= 0)
        APPEND("# HELP jobscreen_ingest_database_up whether the last pass reached the database\n"
               "# TYPE jobscreen_ingest_database_up gauge\njobscreen_ingest_database_up %d\n", m.db_up);
    APPEND("# HELP jobscreen_ingest_last_pass_timestamp_seconds when the last pass ended\n"
           "# TYPE jobscreen_ingest_last_pass_timestamp_seconds gauge\njobscreen_ingest_last_pass_timestamp_seconds %.3f\n",
           m.last_pass);
    APPEND("# HELP jobscreen_ingest_start_time_seconds when the daemon started\n"
           "# TYPE jobscreen_ingest_start_time_seconds gauge\njobscreen_ingest_start_time_seconds %.3f\n", m.started);
    APPEND("# HELP jobscreen_ingest_lag_seconds from a step's end (a running step's snapshot) to its commit\n"
           "# TYPE jobscreen_ingest_lag_seconds histogram\n");
    for (size_t i = 0; i < NLAG; i++)
        APPEND("jobscreen_ingest_lag_seconds_bucket{le=\"%g\"} %ld\n", lag_le[i], m.lag_bucket[i]);
    APPEND("jobscreen_ingest_lag_seconds_bucket{le=\"+Inf\"} %ld\njobscreen_ingest_lag_seconds_sum %.3f\n"
           "jobscreen_ingest_lag_seconds_count %ld\n", m.lag_count, m.lag_sum, m.lag_count);
    pthread_mutex_unlock(&m.lock);
    if (size)
        buf[n < size ? n : size - 1] = '\0';
    return n < size ? n : size - 1;
}

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
    int lfd = (int)(intptr_t)arg;
    static char body[16384];
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
            size_t len = pi_metrics_render(body, sizeof body);
            reply(fd, "200 OK", "text/plain; version=0.0.4; charset=utf-8", head ? "" : body, head ? 0 : len);
        }
        close(fd);
    }
    return NULL;
}

int pi_metrics_start(const char *listen_at, char *err, size_t errlen)
{
    char host[256];
    const char *colon = strrchr(listen_at, ':');
    if (!colon || colon == listen_at || (size_t)(colon - listen_at) >= sizeof host || !colon[1]) {
        snprintf(err, errlen, "metrics_listen: \"%s\" is not HOST:PORT", listen_at);
        return -1;
    }
    memcpy(host, listen_at, (size_t)(colon - listen_at));
    host[colon - listen_at] = '\0';
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE }, *ai = NULL;
    int e = getaddrinfo(host, colon + 1, &hints, &ai);
    if (e != 0) {
        snprintf(err, errlen, "metrics_listen %s: %s", listen_at, gai_strerror(e));
        return -1;
    }
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol), one = 1;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
        bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 16) < 0) {
        snprintf(err, errlen, "metrics_listen %s: %s", listen_at, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return -1;
    }
    freeaddrinfo(ai);
    pthread_mutex_lock(&m.lock);
    m.started = now_s();
    pthread_mutex_unlock(&m.lock);
    pthread_t t;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&t, &at, serve, (void *)(intptr_t)fd);
    pthread_attr_destroy(&at);
    if (rc != 0) {
        snprintf(err, errlen, "metrics_listen: no thread: %s", strerror(rc));
        close(fd);
        return -1;
    }
    return 0;
}

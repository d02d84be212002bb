/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ingest's metrics (metrics.h): Prometheus text format 0.0.4. */
#include "config.h"

#include "metrics.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "metrics_http.h"

/* the lag's histogram buckets, seconds from a step's end to its commit */
static const double lag_le[] = { 1, 5, 15, 60, 300, 900, 3600, 14400 };
#define NLAG (sizeof lag_le / sizeof lag_le[0])

static struct {
    pthread_mutex_t lock;
    long step_records, profiles, slice_rows, quarantined, failed, passes, db_down_passes;
    long backlog, deferred;
    long insight_steps, insight_failed, insight_queued;
    double insight_seconds;
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

void pi_metrics_insight(long computed, long failed, double seconds, long queued)
{
    pthread_mutex_lock(&m.lock);
    m.insight_steps += computed;
    m.insight_failed += failed;
    m.insight_seconds += seconds;
    m.insight_queued = queued;
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
        { "jobscreen_ingest_insight_steps_total", "counter", "steps whose insight was computed (docs/insight.md)" },
        { "jobscreen_ingest_insight_errors_total", "counter", "steps whose insight failed (logged; computed again when a record of them arrives)" },
    };
    const long counters[] = { m.step_records, m.profiles, m.slice_rows, m.quarantined, m.failed, m.passes, m.db_down_passes,
                              m.insight_steps, m.insight_failed };
    for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++)
        APPEND("# HELP %s %s\n# TYPE %s %s\n%s %ld\n", meta[i].name, meta[i].help, meta[i].name, meta[i].type,
               meta[i].name, counters[i]);
    APPEND("# HELP jobscreen_ingest_backlog_step_records step records waiting in the spool after the last pass\n"
           "# TYPE jobscreen_ingest_backlog_step_records gauge\njobscreen_ingest_backlog_step_records %ld\n", m.backlog);
    APPEND("# HELP jobscreen_ingest_deferred_step_records step records the pass budgets left for the next pass\n"
           "# TYPE jobscreen_ingest_deferred_step_records gauge\njobscreen_ingest_deferred_step_records %ld\n", m.deferred);
    APPEND("# HELP jobscreen_ingest_insight_seconds_total time spent computing insight\n"
           "# TYPE jobscreen_ingest_insight_seconds_total counter\njobscreen_ingest_insight_seconds_total %.3f\n",
           m.insight_seconds);
    APPEND("# HELP jobscreen_ingest_insight_queued_steps steps queued for their insight after the last pass\n"
           "# TYPE jobscreen_ingest_insight_queued_steps gauge\njobscreen_ingest_insight_queued_steps %ld\n",
           m.insight_queued);
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

int pi_metrics_start(const char *listen_at, char *err, size_t errlen)
{
    pthread_mutex_lock(&m.lock);
    m.started = now_s();
    pthread_mutex_unlock(&m.lock);
    return js_metrics_serve(listen_at, pi_metrics_render, err, errlen);
}

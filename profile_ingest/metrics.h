/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ingest's health for Prometheus (docs/ingest.md, "Metrics"): counters and gauges the
 * daemon keeps, served in Prometheus' text format at http://metrics_listen/metrics by a thread
 * of its own. The ingest never waits on it: an update is a few additions under a mutex. */
#ifndef PI_METRICS_H
#define PI_METRICS_H

#include <stddef.h>

/* A step record committed: its lag from the step's end (or the snapshot) to the commit, and
 * what it held. */
void pi_metrics_step(double lag_seconds, long profiles, long slice_rows, long quarantined);
/* A pass ended: what waits, whether the database answered, step records that failed. */
void pi_metrics_pass(long backlog, long deferred, int db_up, long failed);
/* The insight of a pass (docs/insight.md): steps computed, steps that failed, the time it took,
 * and the steps still queued after it. */
void pi_metrics_insight(long computed, long failed, double seconds, long queued);
/* The text of /metrics into buf (NUL-terminated); its length. */
size_t pi_metrics_render(char *buf, size_t size);
/* Serve /metrics on HOST:PORT (an IPv4 address or a name; port 1-65535) from a thread; 0, or
 * -1 with the reason. */
int pi_metrics_start(const char *listen, char *err, size_t errlen);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A tiny HTTP responder for Prometheus: GET /metrics answered with what a render function
 * writes (text format 0.0.4), one short request at a time, from a detached thread of its own,
 * so that the daemon that keeps the figures never waits on a scrape. Used by profile_ingest and
 * jobscreen-send (docs/ingest.md and docs/transport.md, "Metrics"). */
#ifndef JS_METRICS_HTTP_H
#define JS_METRICS_HTTP_H

#include <stddef.h>

/* write the metrics into buf (NUL-terminated); their length */
typedef size_t (*js_metrics_render_fn)(char *buf, size_t size);

/* Serve GET /metrics on HOST:PORT (an address or a name) from a thread; other paths 404, other
 * methods 405. 0, or -1 with the reason in err. */
int js_metrics_serve(const char *listen, js_metrics_render_fn render, char *err, size_t errlen);

#endif

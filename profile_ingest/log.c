/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

static int log_syslog;
static enum pi_level log_level = PI_INFO;
static const char *const level_names[] = { "error", "warn", "info", "debug" };

void pi_log_open(int use_syslog, enum pi_level level)
{
    if (use_syslog && !log_syslog)
        openlog("profile_ingest", LOG_PID, LOG_DAEMON);
    else if (!use_syslog && log_syslog)
        closelog();
    log_syslog = use_syslog;
    log_level = level;
}

void pi_log_set_level(enum pi_level level) { log_level = level; }

int pi_log_level_parse(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(name, level_names[i]) == 0)
            return i;
    return -1;
}

void pi_log(enum pi_level level, const char *fmt, ...)
{
    if (level > log_level)
        return;
    char msg[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (log_syslog) {
        static const int prio[] = { LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG };
        syslog(prio[level], "%s: %s", level_names[level], msg);
        return;
    }
    struct timespec ts;
    struct tm tm;
    char when[32];
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
    fprintf(stderr, "%s.%03ldZ profile_ingest %s: %s\n", when, ts.tv_nsec / 1000000, level_names[level], msg);
}

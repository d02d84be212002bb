/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Logging with levels, to stderr or syslog (profile_ingest(8), "log" in the config). */
#ifndef PI_LOG_H
#define PI_LOG_H

enum pi_level { PI_ERROR = 0, PI_WARN = 1, PI_INFO = 2, PI_DEBUG = 3 };

void pi_log_open(int use_syslog, enum pi_level level);
void pi_log_set_level(enum pi_level level);
/* -1 when the name is not one of error, warn, info, debug */
int pi_log_level_parse(const char *name);
void pi_log(enum pi_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define pi_error(...) pi_log(PI_ERROR, __VA_ARGS__)
#define pi_warn(...) pi_log(PI_WARN, __VA_ARGS__)
#define pi_info(...) pi_log(PI_INFO, __VA_ARGS__)
#define pi_debug(...) pi_log(PI_DEBUG, __VA_ARGS__)

#endif

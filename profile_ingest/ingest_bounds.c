/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every check of the ingest says and measures against, below all of them (validate.c,
 * cols_check.c, budget.c, ingest_segments.c, ingest_gpu.c ...), calling none: the refusal with
 * its reason, the version each later member of a profile came in, and the rates no node can
 * exceed. No I/O: unit-tested.
 */
#include "config.h"

#include "validate.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int pi_invalid(char *reason, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, size, fmt, ap);
    va_end(ap);
    return PI_INVALID;
}

/* Members that came after version 1: section "" is the top level, else the object or list they
 * are members of. A reader asks since() whether a version's profiles have one; pi_profile_add
 * supplies the default of those they lack. */
static const struct {
    const char *section, *name;
    json_int_t version;
} later_fields[] = {
    { "", "exit_code", 2 }, { "", "signal", 2 }, { "", "missing", 2 },
    { "", "trees", 3 }, { "", "renames", 3 }, { "", "renames_dropped", 3 }, { "files", "opened_as", 3 },
    { "", "kernel_io", 4 }, { "files", "mapped_bytes", 4 }, { "runtime", "mpi_setup_ns", 4 }, { "runtime", "cpu_wait_ns", 4 },
    { "runtime", "idle_ns", 4 }, { "", "mpi_segments", 6 }, { "", "sync_calls", 8 }, { "", "sync_ns", 8 },
    { "", "code_dropped", 8 }, { "files", "btime", 9 },
};

json_int_t pi_field_since(const char *section, const char *name)
{
    for (size_t i = 0; i < sizeof later_fields / sizeof later_fields[0]; i++)
        if (!strcmp(section, later_fields[i].section) && !strcmp(name, later_fields[i].name))
            return later_fields[i].version;
    return 1;
}

/* --- plausibility: values no node could produce (a forged profile's 4e18 CPU ns would show in
 * every user's background, three of them wrap the totals) are refused with the bound named ---
 * Rates per second of a node, by unit; a figure over a span of s seconds may reach rate x s.
 * budget.c holds a step-node's sums to the same rates. */
double pi_node_rate(const struct pi_conf *conf, const char *unit, int is_cpu)
{
    return is_cpu ? 1e9 * conf->node_cpus_max
         : !strcmp(unit, "ns") ? 1e9 * JS_PROFILE_MAX_THREADS
         : !strcmp(unit, "bytes") ? (double)conf->node_bytes_per_second_max : PI_CALLS_PER_SECOND_MAX;
}

void pi_node_rate_words(const struct pi_conf *conf, const char *unit, int is_cpu, double seconds, char *out, size_t size)
{
    if (is_cpu)
        snprintf(out, size, "the most %d CPUs (node_cpus_max) use in %.0f s", conf->node_cpus_max, seconds);
    else if (!strcmp(unit, "ns"))
        snprintf(out, size, "the most %d threads spend in %.0f s", JS_PROFILE_MAX_THREADS, seconds);
    else if (!strcmp(unit, "bytes"))
        snprintf(out, size, "the most a node moves in %.0f s (node_bytes_per_second_max)", seconds);
    else
        snprintf(out, size, "the most calls a node makes in %.0f s", seconds);
}

/* value of what (in where) over seconds at the rate of unit: 0, or -1 with the reason */
int pi_plausible(const struct pi_conf *conf, const char *where, const char *what, const char *unit, int is_cpu,
                 int64_t value, double seconds, char *reason, size_t size)
{
    double max = pi_node_rate(conf, unit, is_cpu) * seconds;
    if ((double)value <= max)
        return 0;
    char why[96];
    pi_node_rate_words(conf, unit, is_cpu, seconds, why, sizeof why);
    return pi_invalid(reason, size, "%s%s%s %" PRId64 " is more than %.3g, %s: not plausible", where, *where ? ": " : "",
                what, value, max, why);
}

int pi_end_check(const char *end, int64_t sig, int64_t code, size_t missing_len, char *reason, size_t size)
{
    if (sig < 0 || sig > PI_SIGNAL_MAX)
        return pi_invalid(reason, size, "signal %" PRId64 " is not a signal number (0 to %d)", sig, PI_SIGNAL_MAX);
    if ((sig > 0) != (strcmp(end, "signal") == 0))
        return pi_invalid(reason, size, "signal %" PRId64 " does not agree with end \"%s\" (a signal number if and only if end is signal)", sig, end);
    if (code < -1 || code > 255)
        return pi_invalid(reason, size, "exit_code %" PRId64 " is not an exit status (0 to 255, or -1)", code);
    if (missing_len > PI_MISSING_MAX)
        return pi_invalid(reason, size, "field \"missing\" is longer than %d bytes", PI_MISSING_MAX);
    return PI_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The victims' and the CPU hog's unit of work: a dependent chain of multiply-adds, so that a
 * unit costs the same on every run (no memory traffic, no branches that depend on data) and
 * only a competitor for the core can make it take longer. Deterministic work, never a time:
 * interference must lengthen the run, not shorten the work.
 */
#ifndef JS_INSIGHT_WORK_H
#define JS_INSIGHT_WORK_H

#include <stdint.h>
#include <time.h>

#define JS_WORK_STEPS_PER_UNIT 100000

static inline double js_work(uint64_t units, double seed)
{
    double x = seed;
    for (uint64_t i = 0; i < units * JS_WORK_STEPS_PER_UNIT; i++)
        x = x * 0.999999 + 1e-7;
    return x;
}

static inline double js_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* units that take MS milliseconds on this machine now: the fastest of 5 tries (the one least
 * disturbed), so that a calibration on a busy machine errs towards shorter runs */
static inline uint64_t js_work_calibrate(double ms)
{
    const uint64_t probe = 200;
    double best = 1e9;
    volatile double sink = 0;
    for (int k = 0; k < 5; k++) {
        double t0 = js_now();
        sink += js_work(probe, 1.0);
        double t = js_now() - t0;
        if (t < best)
            best = t;
    }
    (void)sink;
    uint64_t u = (uint64_t)(ms / 1e3 / best * (double)probe + 0.5);
    return u ? u : 1;
}

#endif

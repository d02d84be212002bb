/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A worker thread that runs one call at a time for a caller who waits at most a deadline:
 * how the sampler bounds NVML, whose calls can hang in the driver on a sick GPU. A call that
 * misses its deadline leaves the guard stuck: it is never given another, and its thread and
 * the call's data are left alone for good (nothing can stop a thread blocked in an ioctl).
 */
#ifndef JS_GPU_GUARD_H
#define JS_GPU_GUARD_H

struct jsg_guard;

/* NULL when the thread cannot be started. */
struct jsg_guard *jsg_guard_start(int timeout_ms);
/* 0: fn(arg) ran and returned within the deadline; -1: it did not (or the guard was stuck
 * already): fn may still be running, so arg must outlive the process. */
int jsg_guard_run(struct jsg_guard *gd, void (*fn)(void *), void *arg);
int jsg_guard_stuck(const struct jsg_guard *gd);
/* Ends and joins the thread; a stuck guard is left as it is (leaked on purpose). */
void jsg_guard_stop(struct jsg_guard *gd);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include "gpu_guard.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

struct jsg_guard {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t wake; /* the worker waits for a call */
    pthread_cond_t done; /* the caller waits for its end (CLOCK_MONOTONIC) */
    void (*fn)(void *);
    void *arg;
    unsigned long asked, answered;
    int quit;
    int stuck;
    int timeout_ms;
};

static void *guard_main(void *p)
{
    struct jsg_guard *gd = p;
    pthread_mutex_lock(&gd->mu);
    for (;;) {
        while (!gd->quit && gd->answered == gd->asked)
            pthread_cond_wait(&gd->wake, &gd->mu);
        if (gd->quit)
            break;
        void (*fn)(void *) = gd->fn;
        void *arg = gd->arg;
        pthread_mutex_unlock(&gd->mu);
        fn(arg);
        pthread_mutex_lock(&gd->mu);
        gd->answered++;
        pthread_cond_signal(&gd->done);
    }
    pthread_mutex_unlock(&gd->mu);
    return NULL;
}

struct jsg_guard *jsg_guard_start(int timeout_ms)
{
    struct jsg_guard *gd = calloc(1, sizeof(*gd));
    if (gd == NULL)
        return NULL;
    gd->timeout_ms = timeout_ms;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&gd->mu, NULL);
    pthread_cond_init(&gd->wake, NULL);
    pthread_cond_init(&gd->done, &ca);
    pthread_condattr_destroy(&ca);
    /* the worker takes no signal: the process's handlers run on the caller's thread */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&gd->thread, NULL, guard_main, gd);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        pthread_cond_destroy(&gd->done);
        pthread_cond_destroy(&gd->wake);
        pthread_mutex_destroy(&gd->mu);
        free(gd);
        return NULL;
    }
    return gd;
}

int jsg_guard_run(struct jsg_guard *gd, void (*fn)(void *), void *arg)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += gd->timeout_ms / 1000;
    until.tv_nsec += (long)(gd->timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&gd->mu);
    if (gd->stuck) {
        pthread_mutex_unlock(&gd->mu);
        return -1;
    }
    gd->fn = fn;
    gd->arg = arg;
    gd->asked++;
    pthread_cond_signal(&gd->wake);
    int rc = 0;
    while (gd->answered != gd->asked && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&gd->done, &gd->mu, &until);
    int ok = gd->answered == gd->asked;
    if (!ok)
        gd->stuck = 1;
    pthread_mutex_unlock(&gd->mu);
    return ok ? 0 : -1;
}

int jsg_guard_stuck(const struct jsg_guard *gd)
{
    return gd->stuck;
}

void jsg_guard_stop(struct jsg_guard *gd)
{
    if (gd == NULL)
        return;
    pthread_mutex_lock(&gd->mu);
    int stuck = gd->stuck;
    gd->quit = 1;
    pthread_cond_signal(&gd->wake);
    pthread_mutex_unlock(&gd->mu);
    if (stuck) {
        /* its thread is inside a call that never came back: leave it and its memory */
        pthread_detach(gd->thread);
        return;
    }
    pthread_join(gd->thread, NULL);
    pthread_cond_destroy(&gd->done);
    pthread_cond_destroy(&gd->wake);
    pthread_mutex_destroy(&gd->mu);
    free(gd);
}

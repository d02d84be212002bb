/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the MPI wrappers (mpi.c) and the MPI-IO wrappers (mpi_file.c) share: the definition of a
 * wrapper as MPI_x and PMPI_x, one counted call, and the request classes a wait books to.
 * Included after <mpi.h>.
 */
#ifndef JS_MPI_WRAP_H
#define JS_MPI_WRAP_H

#include "js.h"

#include <stdint.h>

void *js_mpi_next(const char *name);
/* count elements of d in bytes; 0 when its size cannot be known */
uint64_t js_tsize(MPI_Datatype d, int count);

enum { JS_RQ_P2P = 0, JS_RQ_MPIIO = 1, JS_RQ_COLL0 = 2, JS_RQ_CLASSES = JS_RQ_COLL0 + JS_COLL_COUNT };
/* a request of class cls was posted: its wait time goes to that class */
void js_rq_put(MPI_Request r, int cls);

#define JS_UNPAREN(...) __VA_ARGS__
/* JS_MPI_DEF(x, params, args, body): MPI_x and PMPI_x, both running body, in which next_ is the
 * next definition of the name called and the parameters are those of params. */
#define JS_MPI_DEF(base, params, args, ...) \
    static inline __attribute__((always_inline)) int js_w_##base(int (*next_) params, JS_UNPAREN params) \
    { \
        __VA_ARGS__ \
    } \
    JS_EXPORT int MPI_##base params \
    { \
        static int (*n_) params; \
        if (JS_UNLIKELY(n_ == NULL)) \
            n_ = (int (*) params)js_mpi_next("MPI_" #base); \
        return js_w_##base(n_, JS_UNPAREN args); \
    } \
    JS_EXPORT int PMPI_##base params \
    { \
        static int (*n_) params; \
        if (JS_UNLIKELY(n_ == NULL)) \
            n_ = (int (*) params)js_mpi_next("PMPI_" #base); \
        return js_w_##base(n_, JS_UNPAREN args); \
    }

/* One counted call. t is NULL when nothing is to be counted: not recording, or inside an MPI
 * call already counted (another tool's PMPI_x under our MPI_x, a Fortran binding's PMPI_x,
 * the library's internal calls): then the wrapper only forwards. */
struct js_mpi_call {
    struct js_thread *t;
    uint64_t t0;
};

static inline struct js_mpi_call js_mpi_begin(void)
{
    struct js_mpi_call c = {js_self(), 0};
    if (c.t) {
        if (c.t->in_mpi) {
            c.t = NULL;
            return c;
        }
        c.t->in_mpi++;
        c.t0 = js_ticks();
    }
    return c;
}

/* the call is over: its duration in ticks (0 when not counted) */
static inline uint64_t js_mpi_stop(struct js_mpi_call c)
{
    if (!c.t)
        return 0;
    uint64_t dt = js_ticks() - c.t0;
    c.t->in_mpi--;
    return dt;
}

static inline uint64_t js_mpi_end(struct js_mpi_call c, int ns_metric)
{
    if (!c.t)
        return 0;
    uint64_t dt = js_mpi_stop(c);
    js_add(c.t, ns_metric, dt);
    return dt;
}

#endif

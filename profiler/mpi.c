/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MPI wrappers. Compiled against the system mpi.h for the prototypes, but the library links no
 * libmpi: each wrapper finds the next definition once with dlsym, so in a program that is not
 * an MPI program these definitions are never called and cost nothing. No MPI constant
 * (MPI_COMM_WORLD, MPI_INT, ...) is referenced: in Open MPI they are symbols of libmpi.
 * POSIX calls made inside an MPI call count as that call's lower layer (js_thread.in_mpi).
 *
 * Every wrapped function is defined twice, as MPI_x and as PMPI_x, each calling the next
 * definition of its own name (docs/profiler.md, "MPI"): so other PMPI tools stack in either
 * preload order (a tool before us calls PMPI_x, which is ours; one after us is the next MPI_x),
 * and the Fortran bindings, which call PMPI_x through the PLT (Open MPI's libmpi_mpifh, and
 * through it mpi_f08), are counted like C. A call made inside one we are already counting
 * (in_mpi > 0: another tool's PMPI_x under our MPI_x, the library's own internal calls, the
 * Fortran binding's) is only forwarded: nothing is counted twice.
 */
#include "config.h"

#include "js.h"
#include "modules.h"
#include "profile.h"

#include <dlfcn.h>
#include <link.h>
#include <string.h>

#include <mpi.h>

#include "mpi_wrap.h"

/* The next definition of name after this library: dlsym(RTLD_NEXT), or, when libmpi was loaded
 * with RTLD_LOCAL (a Python extension, say), the first object after ours in load order that
 * defines it (for MPI_x, then PMPI_x). Never our own definition. */
struct js_find {
    const char *name, *alt;
    const char *self;
    int after;
    void *sym;
};

static int js_find_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct js_find *f = data;
    if (info->dlpi_name == NULL || info->dlpi_name[0] == '\0')
        return 0;
    if (!f->after) {
        f->after = f->self != NULL && strcmp(info->dlpi_name, f->self) == 0;
        return 0;
    }
    void *h = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
    if (h == NULL)
        return 0;
    f->sym = dlsym(h, f->name);
    if (f->sym == NULL && f->alt != NULL)
        f->sym = dlsym(h, f->alt);
    dlclose(h);
    return f->sym != NULL;
}

void *js_mpi_next(const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    if (p == NULL) {
        Dl_info me;
        struct js_find f = {name, NULL, NULL, 0, NULL};
        char alt[64];
        if (strncmp(name, "MPI_", 4) == 0 && strlen(name) + 2 < sizeof alt) {
            alt[0] = 'P';
            strcpy(alt + 1, name);
            f.alt = alt;
        }
        if (dladdr((void *)js_mpi_next, &me) != 0)
            f.self = me.dli_fname;
        dl_iterate_phdr(js_find_cb, &f);
        p = f.sym;
    }
    return p;
}

/* the library's own helpers (never wrapped): PMPI_Type_size, PMPI_Comm_rank, ... */
static void *js_pmpi(const char *name)
{
    return js_mpi_next(name);
}

/* Bumped whenever a datatype is freed: a cached size is valid only within one generation. */
static uint32_t js_dt_gen = 1;

uint64_t js_tsize(MPI_Datatype d, int count)
{
    static int (*type_size)(MPI_Datatype, int *);
    if (count <= 0)
        return 0;
    struct js_thread *t = js_tls;
    uint32_t gen = __atomic_load_n(&js_dt_gen, __ATOMIC_ACQUIRE);
    if (t && t->dt_last == (void *)d && t->dt_gen == gen)
        return (uint64_t)count * (uint64_t)t->dt_size;
    if (type_size == NULL)
        type_size = (int (*)(MPI_Datatype, int *))js_pmpi("PMPI_Type_size");
    int s = 0;
    if (type_size == NULL || type_size(d, &s) != MPI_SUCCESS || s < 0)
        return 0;
    if (t) {
        t->dt_last = (void *)d;
        t->dt_size = s;
        t->dt_gen = gen;
    }
    return (uint64_t)count * (uint64_t)s;
}

JS_MPI_DEF(Type_free, (MPI_Datatype *d), (d),
    __atomic_add_fetch(&js_dt_gen, 1, __ATOMIC_ACQ_REL);
    return next_(d);
)

static int js_comm_size(MPI_Comm c)
{
    static int (*comm_size)(MPI_Comm, int *);
    if (comm_size == NULL)
        comm_size = (int (*)(MPI_Comm, int *))js_pmpi("PMPI_Comm_size");
    int n = 0;
    if (comm_size == NULL || comm_size(c, &n) != MPI_SUCCESS)
        return 0;
    return n;
}

/* --- requests: which class a non-blocking call's wait time belongs to ---
 * Collective and MPI-IO requests are entered in a small open-addressed table when posted (one
 * word each: the handle and its class, set and cleared with compare-and-swap, so any thread may
 * post and any complete); point-to-point requests are not, and an unknown request counts as
 * point-to-point. A wait or test books its time to the class of the requests it completed (of
 * those it was given when it completed none), split evenly between classes by request count.
 * Bounded: when a request's window of slots is full it stays unknown (point-to-point). */
#define JS_RQ_SLOTS 1024u
#define JS_RQ_WINDOW 16u
#define JS_RQ_ARR 64 /* requests of one array call classified; the ones after count as p2p */
#define JS_RQ_SHIFT 5
_Static_assert(JS_RQ_CLASSES < (1 << JS_RQ_SHIFT), "request classes fit in the low bits");
static uint64_t js_rq[JS_RQ_SLOTS];
static unsigned js_rq_used; /* entries in the table; 0: no lookups at all */

static inline uint64_t js_rq_key(MPI_Request r)
{
    return (uint64_t)(uintptr_t)r;
}

static inline unsigned js_rq_hash(uint64_t key)
{
    return (unsigned)(((key >> 4) * 0x9E3779B97F4A7C15ull) >> 54) & (JS_RQ_SLOTS - 1);
}

/* the class of request key (JS_RQ_P2P when unknown); removed from the table when take */
static int js_rq_find(uint64_t key, int take)
{
    if (__atomic_load_n(&js_rq_used, __ATOMIC_ACQUIRE) == 0 || key == 0)
        return JS_RQ_P2P;
    unsigned h = js_rq_hash(key);
    for (unsigned i = 0; i < JS_RQ_WINDOW; i++) {
        uint64_t *s = &js_rq[(h + i) & (JS_RQ_SLOTS - 1)];
        uint64_t w = __atomic_load_n(s, __ATOMIC_ACQUIRE);
        if (w != 0 && (w >> JS_RQ_SHIFT) == key) {
            if (take) {
                if (!__atomic_compare_exchange_n(s, &w, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
                    return JS_RQ_P2P; /* another thread completed it */
                __atomic_sub_fetch(&js_rq_used, 1, __ATOMIC_ACQ_REL);
            }
            return (int)(w & ((1u << JS_RQ_SHIFT) - 1)) - 1;
        }
    }
    return JS_RQ_P2P;
}

void js_rq_put(MPI_Request r, int cls)
{
    uint64_t key = js_rq_key(r);
    if (key == 0 || key >> (64 - JS_RQ_SHIFT))
        return;
    js_rq_find(key, 1); /* a handle reused after a completion we did not see */
    uint64_t w = key << JS_RQ_SHIFT | (uint64_t)(cls + 1);
    unsigned h = js_rq_hash(key);
    for (unsigned i = 0; i < JS_RQ_WINDOW; i++) {
        uint64_t none = 0;
        if (__atomic_compare_exchange_n(&js_rq[(h + i) & (JS_RQ_SLOTS - 1)], &none, w, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED)) {
            __atomic_add_fetch(&js_rq_used, 1, __ATOMIC_ACQ_REL);
            return;
        }
    }
}

/* a point-to-point request was posted: a stale entry of a reused handle goes */
static inline void js_rq_p2p(MPI_Request r)
{
    if (JS_UNLIKELY(__atomic_load_n(&js_rq_used, __ATOMIC_RELAXED) != 0))
        js_rq_find(js_rq_key(r), 1);
}

/* dt ticks of one call into the time metric of class cls */
static void js_book(struct js_thread *t, int cls, uint64_t dt)
{
    if (cls == JS_RQ_MPIIO)
        js_add(t, JS_M_MPIIO_NS, dt);
    else if (cls >= JS_RQ_COLL0) {
        js_add(t, JS_M_MPI_COLL_NS, dt);
        __atomic_fetch_add(&js_g->coll[cls - JS_RQ_COLL0][2], dt, __ATOMIC_RELAXED);
    } else
        js_add(t, JS_M_MPI_P2P_NS, dt);
}

/* dt split evenly between the classes of n[] (requests per class) */
static void js_book_split(struct js_thread *t, const unsigned n[JS_RQ_CLASSES], uint64_t dt)
{
    unsigned total = 0, last = JS_RQ_P2P;
    for (int k = 0; k < JS_RQ_CLASSES; k++)
        if (n[k]) {
            total += n[k];
            last = k;
        }
    if (total == 0) {
        js_book(t, JS_RQ_P2P, dt);
        return;
    }
    uint64_t left = dt;
    for (int k = 0; k < JS_RQ_CLASSES; k++)
        if (n[k] && k != (int)last) {
            uint64_t part = dt * n[k] / total;
            js_book(t, k, part);
            left -= part;
        }
    js_book(t, last, left);
}

/* The requests an array call was given, as they were before it: their keys and classes. */
struct js_rq_arr {
    int n;        /* how many were classified (at most JS_RQ_ARR), 0 when the table is empty */
    uint64_t key[JS_RQ_ARR];
    uint8_t cls[JS_RQ_ARR];
};

static void js_rq_arr_read(struct js_rq_arr *a, int n, const MPI_Request rq[])
{
    a->n = 0;
    if (__atomic_load_n(&js_rq_used, __ATOMIC_ACQUIRE) == 0 || rq == NULL)
        return;
    a->n = n < JS_RQ_ARR ? (n > 0 ? n : 0) : JS_RQ_ARR;
    for (int i = 0; i < a->n; i++) {
        a->key[i] = js_rq_key(rq[i]);
        a->cls[i] = (uint8_t)js_rq_find(a->key[i], 0);
    }
}

/* request i of the array completed: its class (and its entry goes) */
static int js_rq_arr_done(const struct js_rq_arr *a, int i)
{
    if (i < 0 || i >= a->n)
        return JS_RQ_P2P;
    if (a->cls[i] != JS_RQ_P2P)
        js_rq_find(a->key[i], 1);
    return a->cls[i];
}

/* book an array call: done[] the indices completed (nd of them), else all n requests */
static void js_rq_arr_book(struct js_mpi_call c, const struct js_rq_arr *a, int n, const int *done, int nd,
                           int all_done)
{
    uint64_t dt = js_mpi_stop(c);
    unsigned cnt[JS_RQ_CLASSES] = {0};
    if (a->n == 0) {
        js_book(c.t, JS_RQ_P2P, dt);
        return;
    }
    if (all_done || nd > 0) {
        int m = all_done ? n : nd;
        for (int j = 0; j < m; j++)
            cnt[js_rq_arr_done(a, all_done ? j : done[j])]++;
    } else
        for (int j = 0; j < n; j++)
            cnt[j < a->n ? a->cls[j] : JS_RQ_P2P]++;
    js_book_split(c.t, cnt, dt);
}

/* --- start-up: rank and size of MPI_COMM_WORLD --- */
static void js_mpi_ids(void)
{
#ifdef OPEN_MPI
    MPI_Comm world = (MPI_Comm)dlsym(RTLD_DEFAULT, "ompi_mpi_comm_world");
#else
    MPI_Comm world = MPI_COMM_WORLD;
#endif
    static int (*comm_rank)(MPI_Comm, int *);
    if (comm_rank == NULL)
        comm_rank = (int (*)(MPI_Comm, int *))js_pmpi("PMPI_Comm_rank");
    int r = -1;
    if (world && comm_rank && comm_rank(world, &r) == MPI_SUCCESS) {
        js_g->mpi_rank = r;
        js_g->mpi_size = js_comm_size(world);
    }
}

/* MPI_Init, MPI_Init_thread, MPI_Finalize: their time is set-up, not a collective */
static inline void js_setup_done(struct js_mpi_call c)
{
    uint64_t dt = js_mpi_stop(c);
    if (c.t)
        __atomic_fetch_add(&js_g->mpi_setup_ticks, dt, __ATOMIC_RELAXED);
}

JS_MPI_DEF(Init, (int *argc, char ***argv), (argc, argv),
    struct js_mpi_call c = js_mpi_begin();
    int r = next_(argc, argv);
    js_setup_done(c);
    if (c.t && r == MPI_SUCCESS && js_on) {
        js_mpi_ids();
        js_seg_init_done();
    }
    return r;
)

JS_MPI_DEF(Init_thread, (int *argc, char ***argv, int req, int *prov), (argc, argv, req, prov),
    struct js_mpi_call c = js_mpi_begin();
    int r = next_(argc, argv, req, prov);
    js_setup_done(c);
    if (c.t && r == MPI_SUCCESS && js_on) {
        js_mpi_ids();
        js_seg_init_done();
    }
    return r;
)

static inline int js_finalize(int (*next_)(void))
{
    struct js_mpi_call c = js_mpi_begin();
    int r = next_();
    js_setup_done(c);
    return r;
}

JS_EXPORT int MPI_Finalize(void)
{
    static int (*n_)(void);
    if (JS_UNLIKELY(n_ == NULL))
        n_ = (int (*)(void))js_mpi_next("MPI_Finalize");
    return js_finalize(n_);
}

JS_EXPORT int PMPI_Finalize(void)
{
    static int (*n_)(void);
    if (JS_UNLIKELY(n_ == NULL))
        n_ = (int (*)(void))js_mpi_next("PMPI_Finalize");
    return js_finalize(n_);
}

/* --- point to point --- */
static inline void js_p2p_done(struct js_mpi_call c, int calls, int bytes_metric, MPI_Datatype d, int n)
{
    if (c.t) {
        js_add(c.t, calls, 1);
        js_add(c.t, bytes_metric, js_tsize(d, n));
        js_mpi_end(c, JS_M_MPI_P2P_NS);
    }
}

#define JS_SEND(base) \
    JS_MPI_DEF(base, (const void *b, int n, MPI_Datatype d, int dst, int tag, MPI_Comm comm), (b, n, d, dst, tag, comm), \
        struct js_mpi_call c = js_mpi_begin(); \
        int r = next_(b, n, d, dst, tag, comm); \
        js_p2p_done(c, JS_M_MPI_SEND_CALLS, JS_M_MPI_SEND_BYTES, d, n); \
        return r; \
    )
JS_SEND(Send)
JS_SEND(Ssend)
JS_SEND(Bsend)
JS_SEND(Rsend)

#define JS_ISEND(base) \
    JS_MPI_DEF(base, (const void *b, int n, MPI_Datatype d, int dst, int tag, MPI_Comm comm, MPI_Request *rq), \
               (b, n, d, dst, tag, comm, rq), \
        struct js_mpi_call c = js_mpi_begin(); \
        int r = next_(b, n, d, dst, tag, comm, rq); \
        if (c.t && r == MPI_SUCCESS && rq) \
            js_rq_p2p(*rq); \
        js_p2p_done(c, JS_M_MPI_SEND_CALLS, JS_M_MPI_SEND_BYTES, d, n); \
        return r; \
    )
JS_ISEND(Isend)
JS_ISEND(Issend)
JS_ISEND(Irsend)
JS_ISEND(Ibsend)

JS_MPI_DEF(Recv, (void *b, int n, MPI_Datatype d, int src, int tag, MPI_Comm comm, MPI_Status *st),
           (b, n, d, src, tag, comm, st),
    struct js_mpi_call c = js_mpi_begin();
    int r = next_(b, n, d, src, tag, comm, st);
    js_p2p_done(c, JS_M_MPI_RECV_CALLS, JS_M_MPI_RECV_BYTES, d, n);
    return r;
)

JS_MPI_DEF(Irecv, (void *b, int n, MPI_Datatype d, int src, int tag, MPI_Comm comm, MPI_Request *rq),
           (b, n, d, src, tag, comm, rq),
    struct js_mpi_call c = js_mpi_begin();
    int r = next_(b, n, d, src, tag, comm, rq);
    if (c.t && r == MPI_SUCCESS && rq)
        js_rq_p2p(*rq);
    js_p2p_done(c, JS_M_MPI_RECV_CALLS, JS_M_MPI_RECV_BYTES, d, n);
    return r;
)

JS_MPI_DEF(Sendrecv, (const void *sb, int sn, MPI_Datatype sd, int dst, int stag, void *rb, int rn,
                      MPI_Datatype rd, int src, int rtag, MPI_Comm comm, MPI_Status *st),
           (sb, sn, sd, dst, stag, rb, rn, rd, src, rtag, comm, st),
    struct js_mpi_call c = js_mpi_begin();
    int r = next_(sb, sn, sd, dst, stag, rb, rn, rd, src, rtag, comm, st);
    if (c.t) {
        js_add(c.t, JS_M_MPI_SEND_CALLS, 1);
        js_add(c.t, JS_M_MPI_SEND_BYTES, js_tsize(sd, sn));
    }
    js_p2p_done(c, JS_M_MPI_RECV_CALLS, JS_M_MPI_RECV_BYTES, rd, rn);
    return r;
)

/* probes: point-to-point time */
JS_MPI_DEF(Probe, (int s, int tag, MPI_Comm comm, MPI_Status *st), (s, tag, comm, st),
    struct js_mpi_call c = js_mpi_begin();
    int r = next_(s, tag, comm, st);
    js_mpi_end(c, JS_M_MPI_P2P_NS);
    return r;
)
JS_MPI_DEF(Iprobe, (int s, int tag, MPI_Comm comm, int *f, MPI_Status *st), (s, tag, comm, f, st),
    struct js_mpi_call c = js_mpi_begin();
    int r = next_(s, tag, comm, f, st);
    js_mpi_end(c, JS_M_MPI_P2P_NS);
    return r;
)

/* --- completion: time only, booked to the class of the requests (above) --- */
JS_MPI_DEF(Wait, (MPI_Request *rq, MPI_Status *st), (rq, st),
    struct js_mpi_call c = js_mpi_begin();
    int cls = c.t && rq ? js_rq_find(js_rq_key(*rq), 1) : JS_RQ_P2P;
    int r = next_(rq, st);
    if (c.t)
        js_book(c.t, cls, js_mpi_stop(c));
    return r;
)

JS_MPI_DEF(Test, (MPI_Request *rq, int *f, MPI_Status *st), (rq, f, st),
    struct js_mpi_call c = js_mpi_begin();
    uint64_t key = c.t && rq ? js_rq_key(*rq) : 0;
    int cls = c.t ? js_rq_find(key, 0) : JS_RQ_P2P;
    int r = next_(rq, f, st);
    if (c.t) {
        if (cls != JS_RQ_P2P && r == MPI_SUCCESS && f && *f)
            js_rq_find(key, 1);
        js_book(c.t, cls, js_mpi_stop(c));
    }
    return r;
)

JS_MPI_DEF(Request_free, (MPI_Request *rq), (rq),
    struct js_mpi_call c = js_mpi_begin();
    if (c.t && rq)
        js_rq_find(js_rq_key(*rq), 1);
    int r = next_(rq);
    js_mpi_end(c, JS_M_MPI_P2P_NS);
    return r;
)

JS_MPI_DEF(Waitall, (int n, MPI_Request rq[], MPI_Status st[]), (n, rq, st),
    struct js_mpi_call c = js_mpi_begin();
    struct js_rq_arr a;
    if (c.t)
        js_rq_arr_read(&a, n, rq);
    int r = next_(n, rq, st);
    if (c.t)
        js_rq_arr_book(c, &a, n, NULL, 0, 1);
    return r;
)

JS_MPI_DEF(Testall, (int n, MPI_Request rq[], int *f, MPI_Status st[]), (n, rq, f, st),
    struct js_mpi_call c = js_mpi_begin();
    struct js_rq_arr a;
    if (c.t)
        js_rq_arr_read(&a, n, rq);
    int r = next_(n, rq, f, st);
    if (c.t)
        js_rq_arr_book(c, &a, n, NULL, 0, r == MPI_SUCCESS && f && *f);
    return r;
)

JS_MPI_DEF(Waitany, (int n, MPI_Request rq[], int *i, MPI_Status *st), (n, rq, i, st),
    struct js_mpi_call c = js_mpi_begin();
    struct js_rq_arr a;
    if (c.t)
        js_rq_arr_read(&a, n, rq);
    int r = next_(n, rq, i, st);
    if (c.t) {
        int one = i ? *i : MPI_UNDEFINED;
        js_rq_arr_book(c, &a, n, &one, one != MPI_UNDEFINED, 0);
    }
    return r;
)

JS_MPI_DEF(Testany, (int n, MPI_Request rq[], int *i, int *f, MPI_Status *st), (n, rq, i, f, st),
    struct js_mpi_call c = js_mpi_begin();
    struct js_rq_arr a;
    if (c.t)
        js_rq_arr_read(&a, n, rq);
    int r = next_(n, rq, i, f, st);
    if (c.t) {
        int one = i && f && *f ? *i : MPI_UNDEFINED;
        js_rq_arr_book(c, &a, n, &one, one != MPI_UNDEFINED, 0);
    }
    return r;
)

JS_MPI_DEF(Waitsome, (int n, MPI_Request rq[], int *o, int idx[], MPI_Status st[]), (n, rq, o, idx, st),
    struct js_mpi_call c = js_mpi_begin();
    struct js_rq_arr a;
    if (c.t)
        js_rq_arr_read(&a, n, rq);
    int r = next_(n, rq, o, idx, st);
    if (c.t)
        js_rq_arr_book(c, &a, n, idx, o && *o != MPI_UNDEFINED && *o > 0 ? *o : 0, 0);
    return r;
)

JS_MPI_DEF(Testsome, (int n, MPI_Request rq[], int *o, int idx[], MPI_Status st[]), (n, rq, o, idx, st),
    struct js_mpi_call c = js_mpi_begin();
    struct js_rq_arr a;
    if (c.t)
        js_rq_arr_read(&a, n, rq);
    int r = next_(n, rq, o, idx, st);
    if (c.t)
        js_rq_arr_book(c, &a, n, idx, o && *o != MPI_UNDEFINED && *o > 0 ? *o : 0, 0);
    return r;
)

/* --- collectives --- */
static void js_coll_done(struct js_mpi_call c, int kind, uint64_t bytes)
{
    if (!c.t)
        return;
    js_add(c.t, JS_M_MPI_COLL_CALLS, 1);
    js_add(c.t, JS_M_MPI_COLL_BYTES, bytes);
    uint64_t dt = js_mpi_end(c, JS_M_MPI_COLL_NS);
    __atomic_fetch_add(&js_g->coll[kind][0], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&js_g->coll[kind][1], bytes, __ATOMIC_RELAXED);
    __atomic_fetch_add(&js_g->coll[kind][2], dt, __ATOMIC_RELAXED);
}

/* Does a blocking collective of this kind end an MPI segment (JS_SEG_BOUNDARY_KINDS)? A
 * constant in each wrapper. */
static inline int js_seg_kind(int kind)
{
#define JS_X(k) || kind == JS_COLL_##k
    return 0 JS_SEG_BOUNDARY_KINDS(JS_X);
#undef JS_X
}

/* JS_COLL(x, kind, params, args, bytes): blocking, and the end of a segment when of a boundary
 * kind on a communicator as large as MPI_COMM_WORLD; JS_ICOLL: non-blocking (never a boundary),
 * the last parameter its request (rq), counted when posted, its wait's time to the same kind */
#define JS_COLL(base, kind, params, args, bytes) \
    JS_MPI_DEF(base, params, args, \
        struct js_mpi_call c = js_mpi_begin(); \
        int rc_ = next_ args; \
        uint64_t bytes_ = c.t ? (bytes) : 0; \
        js_coll_done(c, JS_COLL_##kind, bytes_); \
        if (js_seg_kind(JS_COLL_##kind) && c.t && rc_ == MPI_SUCCESS && js_comm_size(comm) == js_g->mpi_size) \
            js_seg_boundary(c.t, JS_COLL_##kind, bytes_); \
        return rc_; \
    )
#define JS_ICOLL(base, kind, params, args, bytes) \
    JS_MPI_DEF(base, params, args, \
        struct js_mpi_call c = js_mpi_begin(); \
        int rc_ = next_ args; \
        if (c.t && rc_ == MPI_SUCCESS && rq) \
            js_rq_put(*rq, JS_RQ_COLL0 + JS_COLL_##kind); \
        js_coll_done(c, JS_COLL_##kind, c.t ? (bytes) : 0); \
        return rc_; \
    )

static uint64_t js_sum_counts(const int n[], MPI_Comm comm)
{
    uint64_t s = 0;
    int k = js_comm_size(comm);
    for (int i = 0; n && i < k; i++)
        s += n[i] > 0 ? (uint64_t)n[i] : 0;
    return s;
}

/* X(name, kind, params, args, bytes, trailing params, trailing args): each collective once, made
 * blocking (MPI_x) and non-blocking (MPI_Ix, with a request after the blocking parameters) */
#define JS_COLLECTIVES(X) \
    X(Barrier, Ibarrier, BARRIER, (MPI_Comm comm), (comm), 0) \
    X(Bcast, Ibcast, BCAST, (void *b, int n, MPI_Datatype d, int root, MPI_Comm comm), (b, n, d, root, comm), \
      js_tsize(d, n)) \
    X(Reduce, Ireduce, REDUCE, (const void *s, void *r, int n, MPI_Datatype d, MPI_Op op, int root, MPI_Comm comm), \
      (s, r, n, d, op, root, comm), js_tsize(d, n)) \
    X(Allreduce, Iallreduce, ALLREDUCE, (const void *s, void *r, int n, MPI_Datatype d, MPI_Op op, MPI_Comm comm), \
      (s, r, n, d, op, comm), js_tsize(d, n)) \
    X(Scan, Iscan, OTHER, (const void *s, void *r, int n, MPI_Datatype d, MPI_Op op, MPI_Comm comm), \
      (s, r, n, d, op, comm), js_tsize(d, n)) \
    X(Exscan, Iexscan, OTHER, (const void *s, void *r, int n, MPI_Datatype d, MPI_Op op, MPI_Comm comm), \
      (s, r, n, d, op, comm), js_tsize(d, n)) \
    X(Gather, Igather, GATHER, \
      (const void *s, int sn, MPI_Datatype sd, void *r, int rn, MPI_Datatype rd, int root, MPI_Comm comm), \
      (s, sn, sd, r, rn, rd, root, comm), js_tsize(sd, sn)) \
    X(Gatherv, Igatherv, GATHER, \
      (const void *s, int sn, MPI_Datatype sd, void *r, const int rn[], const int dis[], MPI_Datatype rd, int root, \
       MPI_Comm comm), \
      (s, sn, sd, r, rn, dis, rd, root, comm), js_tsize(sd, sn)) \
    X(Allgather, Iallgather, ALLGATHER, \
      (const void *s, int sn, MPI_Datatype sd, void *r, int rn, MPI_Datatype rd, MPI_Comm comm), \
      (s, sn, sd, r, rn, rd, comm), js_tsize(sd, sn)) \
    X(Allgatherv, Iallgatherv, ALLGATHER, \
      (const void *s, int sn, MPI_Datatype sd, void *r, const int rn[], const int dis[], MPI_Datatype rd, \
       MPI_Comm comm), \
      (s, sn, sd, r, rn, dis, rd, comm), js_tsize(sd, sn)) \
    X(Scatter, Iscatter, SCATTER, \
      (const void *s, int sn, MPI_Datatype sd, void *r, int rn, MPI_Datatype rd, int root, MPI_Comm comm), \
      (s, sn, sd, r, rn, rd, root, comm), js_tsize(sd, sn)) \
    X(Alltoall, Ialltoall, ALLTOALL, \
      (const void *s, int sn, MPI_Datatype sd, void *r, int rn, MPI_Datatype rd, MPI_Comm comm), \
      (s, sn, sd, r, rn, rd, comm), js_tsize(sd, sn) * (uint64_t)js_comm_size(comm)) \
    X(Reduce_scatter, Ireduce_scatter, REDUCE_SCATTER, \
      (const void *s, void *r, const int rn[], MPI_Datatype d, MPI_Op op, MPI_Comm comm), (s, r, rn, d, op, comm), \
      js_tsize(d, 1) * js_sum_counts(rn, comm)) \
    X(Reduce_scatter_block, Ireduce_scatter_block, REDUCE_SCATTER, \
      (const void *s, void *r, int rn, MPI_Datatype d, MPI_Op op, MPI_Comm comm), (s, r, rn, d, op, comm), \
      js_tsize(d, rn) * (uint64_t)js_comm_size(comm))

#define JS_APPEND_RQ(...) (__VA_ARGS__, MPI_Request *rq)
#define JS_APPEND_RQARG(...) (__VA_ARGS__, rq)
#define JS_COLL_BOTH(base, ibase, kind, params, args, bytes) \
    JS_COLL(base, kind, params, args, bytes) \
    JS_ICOLL(ibase, kind, JS_APPEND_RQ params, JS_APPEND_RQARG args, bytes)
JS_COLLECTIVES(JS_COLL_BOTH)

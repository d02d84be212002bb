/*
 * MPI wrappers (PMPI). Compiled against the system mpi.h for the prototypes, but the library
 * links no libmpi: each wrapper finds its PMPI_* once with dlsym, so in a program that is not
 * an MPI program these definitions are never called and cost nothing. No MPI constant
 * (MPI_COMM_WORLD, MPI_INT, ...) is referenced: in Open MPI they are symbols of libmpi.
 * POSIX calls made inside an MPI call count as that call's lower layer (js_thread.in_mpi).
 */
#include "config.h"

#include "js.h"
#include "profile.h"

#include <dlfcn.h>
#include <link.h>
#include <string.h>

#include <mpi.h>

/* The PMPI symbol: the next definition after us, or, when libmpi was loaded with RTLD_LOCAL
 * (a Python extension, say), the one in whichever loaded object defines it. */
struct js_find {
    const char *name;
    void *sym;
};

static int js_find_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct js_find *f = data;
    if (info->dlpi_name == NULL || info->dlpi_name[0] == '\0')
        return 0;
    void *h = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
    if (h == NULL)
        return 0;
    f->sym = dlsym(h, f->name);
    dlclose(h);
    return f->sym != NULL;
}

static void *js_pmpi(const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    if (p == NULL) {
        struct js_find f = {name, NULL};
        dl_iterate_phdr(js_find_cb, &f);
        p = f.sym;
    }
    return p;
}

#define JS_PMPI(name, params) \
    static int (*p_##name) params; \
    if (JS_UNLIKELY(p_##name == NULL)) \
        p_##name = (int (*) params)js_pmpi("P" #name)

/* Bumped whenever a datatype is freed: a cached size is valid only within one generation. */
static uint32_t js_dt_gen = 1;

static uint64_t js_tsize(MPI_Datatype d, int count)
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

JS_EXPORT int MPI_Type_free(MPI_Datatype *d)
{
    JS_PMPI(MPI_Type_free, (MPI_Datatype *));
    __atomic_add_fetch(&js_dt_gen, 1, __ATOMIC_ACQ_REL);
    return p_MPI_Type_free(d);
}

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

struct js_mpi_call {
    struct js_thread *t;
    uint64_t t0;
};

static inline struct js_mpi_call js_mpi_begin(void)
{
    struct js_mpi_call c = {js_self(), 0};
    if (c.t) {
        c.t->in_mpi++;
        c.t0 = js_ticks();
    }
    return c;
}

static inline uint64_t js_mpi_end(struct js_mpi_call c, int ns_metric)
{
    if (!c.t)
        return 0;
    uint64_t dt = js_ticks() - c.t0;
    js_add(c.t, ns_metric, dt);
    c.t->in_mpi--;
    return dt;
}

static inline void js_count(struct js_mpi_call c, int calls, int bytes_metric, uint64_t bytes)
{
    if (c.t) {
        js_add(c.t, calls, 1);
        js_add(c.t, bytes_metric, bytes);
    }
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

JS_EXPORT int MPI_Init(int *argc, char ***argv)
{
    JS_PMPI(MPI_Init, (int *, char ***));
    struct js_mpi_call c = js_mpi_begin();
    int r = p_MPI_Init(argc, argv);
    js_mpi_end(c, JS_M_MPI_COLL_NS);
    if (r == MPI_SUCCESS && js_on)
        js_mpi_ids();
    return r;
}

JS_EXPORT int MPI_Init_thread(int *argc, char ***argv, int req, int *prov)
{
    JS_PMPI(MPI_Init_thread, (int *, char ***, int, int *));
    struct js_mpi_call c = js_mpi_begin();
    int r = p_MPI_Init_thread(argc, argv, req, prov);
    js_mpi_end(c, JS_M_MPI_COLL_NS);
    if (r == MPI_SUCCESS && js_on)
        js_mpi_ids();
    return r;
}

JS_EXPORT int MPI_Finalize(void)
{
    JS_PMPI(MPI_Finalize, (void));
    struct js_mpi_call c = js_mpi_begin();
    int r = p_MPI_Finalize();
    js_mpi_end(c, JS_M_MPI_COLL_NS);
    return r;
}

/* --- point to point --- */
#define JS_SEND(name) \
    JS_EXPORT int name(const void *b, int n, MPI_Datatype d, int dst, int tag, MPI_Comm comm) \
    { \
        JS_PMPI(name, (const void *, int, MPI_Datatype, int, int, MPI_Comm)); \
        struct js_mpi_call c = js_mpi_begin(); \
        int r = p_##name(b, n, d, dst, tag, comm); \
        js_count(c, JS_M_MPI_SEND_CALLS, JS_M_MPI_SEND_BYTES, js_tsize(d, n)); \
        js_mpi_end(c, JS_M_MPI_P2P_NS); \
        return r; \
    }
JS_SEND(MPI_Send)
JS_SEND(MPI_Ssend)
JS_SEND(MPI_Bsend)
JS_SEND(MPI_Rsend)

#define JS_ISEND(name) \
    JS_EXPORT int name(const void *b, int n, MPI_Datatype d, int dst, int tag, MPI_Comm comm, MPI_Request *rq) \
    { \
        JS_PMPI(name, (const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *)); \
        struct js_mpi_call c = js_mpi_begin(); \
        int r = p_##name(b, n, d, dst, tag, comm, rq); \
        js_count(c, JS_M_MPI_SEND_CALLS, JS_M_MPI_SEND_BYTES, js_tsize(d, n)); \
        js_mpi_end(c, JS_M_MPI_P2P_NS); \
        return r; \
    }
JS_ISEND(MPI_Isend)
JS_ISEND(MPI_Issend)
JS_ISEND(MPI_Irsend)
JS_ISEND(MPI_Ibsend)

JS_EXPORT int MPI_Recv(void *b, int n, MPI_Datatype d, int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    JS_PMPI(MPI_Recv, (void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *));
    struct js_mpi_call c = js_mpi_begin();
    int r = p_MPI_Recv(b, n, d, src, tag, comm, st);
    js_count(c, JS_M_MPI_RECV_CALLS, JS_M_MPI_RECV_BYTES, js_tsize(d, n));
    js_mpi_end(c, JS_M_MPI_P2P_NS);
    return r;
}

JS_EXPORT int MPI_Irecv(void *b, int n, MPI_Datatype d, int src, int tag, MPI_Comm comm, MPI_Request *rq)
{
    JS_PMPI(MPI_Irecv, (void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *));
    struct js_mpi_call c = js_mpi_begin();
    int r = p_MPI_Irecv(b, n, d, src, tag, comm, rq);
    js_count(c, JS_M_MPI_RECV_CALLS, JS_M_MPI_RECV_BYTES, js_tsize(d, n));
    js_mpi_end(c, JS_M_MPI_P2P_NS);
    return r;
}

JS_EXPORT int MPI_Sendrecv(const void *sb, int sn, MPI_Datatype sd, int dst, int stag, void *rb, int rn,
                           MPI_Datatype rd, int src, int rtag, MPI_Comm comm, MPI_Status *st)
{
    JS_PMPI(MPI_Sendrecv, (const void *, int, MPI_Datatype, int, int, void *, int, MPI_Datatype, int, int,
                           MPI_Comm, MPI_Status *));
    struct js_mpi_call c = js_mpi_begin();
    int r = p_MPI_Sendrecv(sb, sn, sd, dst, stag, rb, rn, rd, src, rtag, comm, st);
    js_count(c, JS_M_MPI_SEND_CALLS, JS_M_MPI_SEND_BYTES, js_tsize(sd, sn));
    js_count(c, JS_M_MPI_RECV_CALLS, JS_M_MPI_RECV_BYTES, js_tsize(rd, rn));
    js_mpi_end(c, JS_M_MPI_P2P_NS);
    return r;
}

/* waits and tests: time only */
#define JS_P2P_TIME(name, params, args) \
    JS_EXPORT int name params \
    { \
        JS_PMPI(name, params); \
        struct js_mpi_call c = js_mpi_begin(); \
        int r = p_##name args; \
        js_mpi_end(c, JS_M_MPI_P2P_NS); \
        return r; \
    }
JS_P2P_TIME(MPI_Wait, (MPI_Request *rq, MPI_Status *st), (rq, st))
JS_P2P_TIME(MPI_Waitall, (int n, MPI_Request rq[], MPI_Status st[]), (n, rq, st))
JS_P2P_TIME(MPI_Waitany, (int n, MPI_Request rq[], int *i, MPI_Status *st), (n, rq, i, st))
JS_P2P_TIME(MPI_Waitsome, (int n, MPI_Request rq[], int *o, int i[], MPI_Status st[]), (n, rq, o, i, st))
JS_P2P_TIME(MPI_Test, (MPI_Request *rq, int *f, MPI_Status *st), (rq, f, st))
JS_P2P_TIME(MPI_Testall, (int n, MPI_Request rq[], int *f, MPI_Status st[]), (n, rq, f, st))
JS_P2P_TIME(MPI_Probe, (int s, int tag, MPI_Comm comm, MPI_Status *st), (s, tag, comm, st))

/* --- collectives --- */
static void js_coll_done(struct js_mpi_call c, int kind, uint64_t bytes)
{
    if (!c.t)
        return;
    js_count(c, JS_M_MPI_COLL_CALLS, JS_M_MPI_COLL_BYTES, bytes);
    uint64_t dt = js_mpi_end(c, JS_M_MPI_COLL_NS);
    __atomic_fetch_add(&js_g->coll[kind][0], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&js_g->coll[kind][1], bytes, __ATOMIC_RELAXED);
    __atomic_fetch_add(&js_g->coll[kind][2], dt, __ATOMIC_RELAXED);
}

#define JS_COLL(name, kind, params, args, bytes) \
    JS_EXPORT int name params \
    { \
        JS_PMPI(name, params); \
        struct js_mpi_call c = js_mpi_begin(); \
        int rc_ = p_##name args; \
        js_coll_done(c, JS_COLL_##kind, c.t ? (bytes) : 0); \
        return rc_; \
    }
JS_COLL(MPI_Barrier, BARRIER, (MPI_Comm comm), (comm), 0)
JS_COLL(MPI_Bcast, BCAST, (void *b, int n, MPI_Datatype d, int root, MPI_Comm comm), (b, n, d, root, comm), js_tsize(d, n))
JS_COLL(MPI_Reduce, REDUCE, (const void *s, void *r, int n, MPI_Datatype d, MPI_Op op, int root, MPI_Comm comm),
        (s, r, n, d, op, root, comm), js_tsize(d, n))
JS_COLL(MPI_Allreduce, ALLREDUCE, (const void *s, void *r, int n, MPI_Datatype d, MPI_Op op, MPI_Comm comm),
        (s, r, n, d, op, comm), js_tsize(d, n))
JS_COLL(MPI_Scan, OTHER, (const void *s, void *r, int n, MPI_Datatype d, MPI_Op op, MPI_Comm comm),
        (s, r, n, d, op, comm), js_tsize(d, n))
JS_COLL(MPI_Exscan, OTHER, (const void *s, void *r, int n, MPI_Datatype d, MPI_Op op, MPI_Comm comm),
        (s, r, n, d, op, comm), js_tsize(d, n))
JS_COLL(MPI_Gather, GATHER, (const void *s, int sn, MPI_Datatype sd, void *r, int rn, MPI_Datatype rd, int root, MPI_Comm comm),
        (s, sn, sd, r, rn, rd, root, comm), js_tsize(sd, sn))
JS_COLL(MPI_Gatherv, GATHER, (const void *s, int sn, MPI_Datatype sd, void *r, const int rn[], const int dis[], MPI_Datatype rd, int root, MPI_Comm comm),
        (s, sn, sd, r, rn, dis, rd, root, comm), js_tsize(sd, sn))
JS_COLL(MPI_Allgather, ALLGATHER, (const void *s, int sn, MPI_Datatype sd, void *r, int rn, MPI_Datatype rd, MPI_Comm comm),
        (s, sn, sd, r, rn, rd, comm), js_tsize(sd, sn))
JS_COLL(MPI_Allgatherv, ALLGATHER, (const void *s, int sn, MPI_Datatype sd, void *r, const int rn[], const int dis[], MPI_Datatype rd, MPI_Comm comm),
        (s, sn, sd, r, rn, dis, rd, comm), js_tsize(sd, sn))
JS_COLL(MPI_Scatter, SCATTER, (const void *s, int sn, MPI_Datatype sd, void *r, int rn, MPI_Datatype rd, int root, MPI_Comm comm),
        (s, sn, sd, r, rn, rd, root, comm), js_tsize(sd, sn))
JS_COLL(MPI_Alltoall, ALLTOALL, (const void *s, int sn, MPI_Datatype sd, void *r, int rn, MPI_Datatype rd, MPI_Comm comm),
        (s, sn, sd, r, rn, rd, comm), js_tsize(sd, sn) * (uint64_t)js_comm_size(comm))

static uint64_t js_sum_counts(const int n[], MPI_Comm comm)
{
    uint64_t s = 0;
    int k = js_comm_size(comm);
    for (int i = 0; n && i < k; i++)
        s += n[i] > 0 ? (uint64_t)n[i] : 0;
    return s;
}
JS_COLL(MPI_Reduce_scatter, REDUCE_SCATTER, (const void *s, void *r, const int rn[], MPI_Datatype d, MPI_Op op, MPI_Comm comm),
        (s, r, rn, d, op, comm), js_tsize(d, 1) * js_sum_counts(rn, comm))
JS_COLL(MPI_Reduce_scatter_block, REDUCE_SCATTER, (const void *s, void *r, int rn, MPI_Datatype d, MPI_Op op, MPI_Comm comm),
        (s, r, rn, d, op, comm), js_tsize(d, rn) * (uint64_t)js_comm_size(comm))

/* --- MPI-IO --- */
#define JS_MAX_MPI_FILES 256
static struct {
    MPI_File fh;
    struct js_file *f;
} js_mfiles[JS_MAX_MPI_FILES];

static struct js_file *js_mfile(MPI_File fh)
{
    for (int i = 0; i < JS_MAX_MPI_FILES; i++)
        if (js_mfiles[i].fh == fh && fh != NULL)
            return js_mfiles[i].f;
    return NULL;
}

JS_EXPORT int MPI_File_open(MPI_Comm comm, const char *name, int amode, MPI_Info info, MPI_File *fh)
{
    JS_PMPI(MPI_File_open, (MPI_Comm, const char *, int, MPI_Info, MPI_File *));
    struct js_mpi_call c = js_mpi_begin();
    int mode = (amode & MPI_MODE_RDONLY) ? JS_MODE_R : (amode & MPI_MODE_WRONLY) ? JS_MODE_W : JS_MODE_R | JS_MODE_W;
    /* the entry exists before the open so that the POSIX opens below attach to it */
    struct js_file *f = c.t ? js_file_lookup_open(name, JS_LAYER_MPIIO, mode) : NULL;
    int r = p_MPI_File_open(comm, name, amode, info, fh);
    if (c.t) {
        js_add(c.t, JS_M_MPIIO_META_CALLS, 1);
        if (r == MPI_SUCCESS && f && fh) {
            for (int i = 0; i < JS_MAX_MPI_FILES; i++) {
                MPI_File none = NULL;
                if (__atomic_compare_exchange_n(&js_mfiles[i].fh, &none, *fh, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
                    js_mfiles[i].f = f;
                    break;
                }
            }
        } else if (f) {
            f->opens--;
            js_file_closed_entry(f);
        }
    }
    js_mpi_end(c, JS_M_MPIIO_NS);
    return r;
}

JS_EXPORT int MPI_File_close(MPI_File *fh)
{
    JS_PMPI(MPI_File_close, (MPI_File *));
    struct js_mpi_call c = js_mpi_begin();
    MPI_File h = fh ? *fh : NULL;
    int r = p_MPI_File_close(fh);
    if (c.t) {
        js_add(c.t, JS_M_MPIIO_META_CALLS, 1);
        for (int i = 0; h && i < JS_MAX_MPI_FILES; i++)
            if (js_mfiles[i].fh == h) {
                js_file_closed_entry(js_mfiles[i].f);
                js_mfiles[i].f = NULL;
                __atomic_store_n(&js_mfiles[i].fh, NULL, __ATOMIC_RELEASE);
                break;
            }
    }
    js_mpi_end(c, JS_M_MPIIO_NS);
    return r;
}

#define JS_MIO_META(name, params, args) \
    JS_EXPORT int name params \
    { \
        JS_PMPI(name, params); \
        struct js_mpi_call c = js_mpi_begin(); \
        int r = p_##name args; \
        if (c.t) \
            js_add(c.t, JS_M_MPIIO_META_CALLS, 1); \
        js_mpi_end(c, JS_M_MPIIO_NS); \
        return r; \
    }
JS_MIO_META(MPI_File_sync, (MPI_File fh), (fh))
JS_MIO_META(MPI_File_seek, (MPI_File fh, MPI_Offset o, int wh), (fh, o, wh))

static void js_mio_done(struct js_mpi_call c, MPI_File fh, int wr, int coll, uint64_t bytes)
{
    if (!c.t)
        return;
    js_count(c, wr ? JS_M_MPIIO_WRITE_CALLS : JS_M_MPIIO_READ_CALLS, wr ? JS_M_MPIIO_WRITE_BYTES : JS_M_MPIIO_READ_BYTES, bytes);
    if (coll)
        js_add(c.t, JS_M_MPIIO_COLL_CALLS, 1);
    struct js_file *f = js_mfile(fh);
    if (f) {
        js_fadd(wr ? &f->write_calls : &f->read_calls, 1);
        js_fadd(wr ? &f->write_bytes : &f->read_bytes, bytes);
    }
    js_mpi_end(c, JS_M_MPIIO_NS);
}

#define JS_MIO_RD(name, coll, params, args) \
    JS_EXPORT int name params \
    { \
        JS_PMPI(name, params); \
        struct js_mpi_call c = js_mpi_begin(); \
        int r = p_##name args; \
        js_mio_done(c, fh, 0, coll, js_tsize(d, n)); \
        return r; \
    }
#define JS_MIO_WR(name, coll, params, args) \
    JS_EXPORT int name params \
    { \
        JS_PMPI(name, params); \
        struct js_mpi_call c = js_mpi_begin(); \
        int r = p_##name args; \
        js_mio_done(c, fh, 1, coll, js_tsize(d, n)); \
        return r; \
    }
JS_MIO_RD(MPI_File_read, 0, (MPI_File fh, void *b, int n, MPI_Datatype d, MPI_Status *st), (fh, b, n, d, st))
JS_MIO_RD(MPI_File_read_all, 1, (MPI_File fh, void *b, int n, MPI_Datatype d, MPI_Status *st), (fh, b, n, d, st))
JS_MIO_RD(MPI_File_read_at, 0, (MPI_File fh, MPI_Offset o, void *b, int n, MPI_Datatype d, MPI_Status *st), (fh, o, b, n, d, st))
JS_MIO_RD(MPI_File_read_at_all, 1, (MPI_File fh, MPI_Offset o, void *b, int n, MPI_Datatype d, MPI_Status *st), (fh, o, b, n, d, st))
JS_MIO_WR(MPI_File_write, 0, (MPI_File fh, const void *b, int n, MPI_Datatype d, MPI_Status *st), (fh, b, n, d, st))
JS_MIO_WR(MPI_File_write_all, 1, (MPI_File fh, const void *b, int n, MPI_Datatype d, MPI_Status *st), (fh, b, n, d, st))
JS_MIO_WR(MPI_File_write_at, 0, (MPI_File fh, MPI_Offset o, const void *b, int n, MPI_Datatype d, MPI_Status *st), (fh, o, b, n, d, st))
JS_MIO_WR(MPI_File_write_at_all, 1, (MPI_File fh, MPI_Offset o, const void *b, int n, MPI_Datatype d, MPI_Status *st), (fh, o, b, n, d, st))

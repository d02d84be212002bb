/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MPI-IO wrappers: the file an MPI_File names (in the file-access list as the MPI-IO layer),
 * bytes and calls per read and write, and the time of every MPI-IO call. The POSIX calls the
 * library makes underneath count as this layer's lower layer (docs/profiler.md, "MPI").
 */
#include "config.h"

#include "js.h"
#include "modules.h"
#include "profile.h"

#include <string.h>

#include <mpi.h>

#include "mpi_wrap.h"

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

JS_MPI_DEF(File_open, (MPI_Comm comm, const char *name, int amode, MPI_Info info, MPI_File *fh),
           (comm, name, amode, info, fh),
    struct js_mpi_call c = js_mpi_begin();
    int mode = (amode & MPI_MODE_RDONLY) ? JS_MODE_R : (amode & MPI_MODE_WRONLY) ? JS_MODE_W : JS_MODE_R | JS_MODE_W;
    /* the entry exists before the open so that the POSIX opens below attach to it */
    struct js_file *f = c.t ? js_file_lookup_open(name, JS_LAYER_MPIIO, mode) : NULL;
    int r = next_(comm, name, amode, info, fh);
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
)

JS_MPI_DEF(File_close, (MPI_File *fh), (fh),
    struct js_mpi_call c = js_mpi_begin();
    MPI_File h = fh ? *fh : NULL;
    int r = next_(fh);
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
)

#define JS_MIO_META(base, params, args) \
    JS_MPI_DEF(base, params, args, \
        struct js_mpi_call c = js_mpi_begin(); \
        int r = next_ args; \
        if (c.t) \
            js_add(c.t, JS_M_MPIIO_META_CALLS, 1); \
        js_mpi_end(c, JS_M_MPIIO_NS); \
        return r; \
    )
JS_MIO_META(File_sync, (MPI_File fh), (fh))
JS_MIO_META(File_seek, (MPI_File fh, MPI_Offset o, int wh), (fh, o, wh))

/* MPI-IO calls that are neither reads, writes nor the meta calls above, wrapped for their time
 * and so that what the library does inside them (ROMIO's own collectives, POSIX calls) is its
 * lower layer, not the application's */
#define JS_MIO_TIME(base, params, args) \
    JS_MPI_DEF(base, params, args, \
        struct js_mpi_call c = js_mpi_begin(); \
        int r = next_ args; \
        js_mpi_end(c, JS_M_MPIIO_NS); \
        return r; \
    )
JS_MIO_TIME(File_set_view, (MPI_File fh, MPI_Offset o, MPI_Datatype e, MPI_Datatype ft, const char *rep, MPI_Info i),
            (fh, o, e, ft, rep, i))
JS_MIO_TIME(File_set_size, (MPI_File fh, MPI_Offset s), (fh, s))
JS_MIO_TIME(File_preallocate, (MPI_File fh, MPI_Offset s), (fh, s))
JS_MIO_TIME(File_get_size, (MPI_File fh, MPI_Offset *s), (fh, s))
JS_MIO_TIME(File_delete, (const char *name, MPI_Info i), (name, i))

static void js_mio_done(struct js_mpi_call c, MPI_File fh, int wr, int coll, MPI_Datatype d, int n)
{
    if (!c.t)
        return;
    uint64_t bytes = js_tsize(d, n);
    js_add(c.t, wr ? JS_M_MPIIO_WRITE_CALLS : JS_M_MPIIO_READ_CALLS, 1);
    js_add(c.t, wr ? JS_M_MPIIO_WRITE_BYTES : JS_M_MPIIO_READ_BYTES, bytes);
    if (coll)
        js_add(c.t, JS_M_MPIIO_COLL_CALLS, 1);
    struct js_file *f = js_mfile(fh);
    if (f) {
        js_fadd(wr ? &f->write_calls : &f->read_calls, 1);
        js_fadd(wr ? &f->write_bytes : &f->read_bytes, bytes);
    }
    js_mpi_end(c, JS_M_MPIIO_NS);
}

/* X(name, write, collective, params, args): blocking reads and writes; the non-blocking ones
 * (MPI_File_ix) take a request instead of the status, are counted when posted (calls and the
 * bytes asked for, as the blocking ones), and their wait's time is MPI-IO time */
#define JS_MIO_RDWR(base, wr, coll, params, args) \
    JS_MPI_DEF(base, params, args, \
        struct js_mpi_call c = js_mpi_begin(); \
        int r = next_ args; \
        js_mio_done(c, fh, wr, coll, d, n); \
        return r; \
    )
#define JS_MIO_IRDWR(base, wr, coll, params, args) \
    JS_MPI_DEF(base, params, args, \
        struct js_mpi_call c = js_mpi_begin(); \
        int r = next_ args; \
        if (c.t && r == MPI_SUCCESS && rq) \
            js_rq_put(*rq, JS_RQ_MPIIO); \
        js_mio_done(c, fh, wr, coll, d, n); \
        return r; \
    )
#define JS_MIO_RD_PARAMS (MPI_File fh, void *b, int n, MPI_Datatype d, MPI_Status *st)
#define JS_MIO_RD_AT_PARAMS (MPI_File fh, MPI_Offset o, void *b, int n, MPI_Datatype d, MPI_Status *st)
#define JS_MIO_WR_PARAMS (MPI_File fh, const void *b, int n, MPI_Datatype d, MPI_Status *st)
#define JS_MIO_WR_AT_PARAMS (MPI_File fh, MPI_Offset o, const void *b, int n, MPI_Datatype d, MPI_Status *st)
#define JS_MIO_IRD_PARAMS (MPI_File fh, void *b, int n, MPI_Datatype d, MPI_Request *rq)
#define JS_MIO_IRD_AT_PARAMS (MPI_File fh, MPI_Offset o, void *b, int n, MPI_Datatype d, MPI_Request *rq)
#define JS_MIO_IWR_PARAMS (MPI_File fh, const void *b, int n, MPI_Datatype d, MPI_Request *rq)
#define JS_MIO_IWR_AT_PARAMS (MPI_File fh, MPI_Offset o, const void *b, int n, MPI_Datatype d, MPI_Request *rq)
JS_MIO_RDWR(File_read, 0, 0, JS_MIO_RD_PARAMS, (fh, b, n, d, st))
JS_MIO_RDWR(File_read_all, 0, 1, JS_MIO_RD_PARAMS, (fh, b, n, d, st))
JS_MIO_RDWR(File_read_shared, 0, 0, JS_MIO_RD_PARAMS, (fh, b, n, d, st))
JS_MIO_RDWR(File_read_ordered, 0, 1, JS_MIO_RD_PARAMS, (fh, b, n, d, st))
JS_MIO_RDWR(File_read_at, 0, 0, JS_MIO_RD_AT_PARAMS, (fh, o, b, n, d, st))
JS_MIO_RDWR(File_read_at_all, 0, 1, JS_MIO_RD_AT_PARAMS, (fh, o, b, n, d, st))
JS_MIO_RDWR(File_write, 1, 0, JS_MIO_WR_PARAMS, (fh, b, n, d, st))
JS_MIO_RDWR(File_write_all, 1, 1, JS_MIO_WR_PARAMS, (fh, b, n, d, st))
JS_MIO_RDWR(File_write_shared, 1, 0, JS_MIO_WR_PARAMS, (fh, b, n, d, st))
JS_MIO_RDWR(File_write_ordered, 1, 1, JS_MIO_WR_PARAMS, (fh, b, n, d, st))
JS_MIO_RDWR(File_write_at, 1, 0, JS_MIO_WR_AT_PARAMS, (fh, o, b, n, d, st))
JS_MIO_RDWR(File_write_at_all, 1, 1, JS_MIO_WR_AT_PARAMS, (fh, o, b, n, d, st))
JS_MIO_IRDWR(File_iread, 0, 0, JS_MIO_IRD_PARAMS, (fh, b, n, d, rq))
JS_MIO_IRDWR(File_iread_all, 0, 1, JS_MIO_IRD_PARAMS, (fh, b, n, d, rq))
JS_MIO_IRDWR(File_iread_shared, 0, 0, JS_MIO_IRD_PARAMS, (fh, b, n, d, rq))
JS_MIO_IRDWR(File_iread_at, 0, 0, JS_MIO_IRD_AT_PARAMS, (fh, o, b, n, d, rq))
JS_MIO_IRDWR(File_iread_at_all, 0, 1, JS_MIO_IRD_AT_PARAMS, (fh, o, b, n, d, rq))
JS_MIO_IRDWR(File_iwrite, 1, 0, JS_MIO_IWR_PARAMS, (fh, b, n, d, rq))
JS_MIO_IRDWR(File_iwrite_all, 1, 1, JS_MIO_IWR_PARAMS, (fh, b, n, d, rq))
JS_MIO_IRDWR(File_iwrite_shared, 1, 0, JS_MIO_IWR_PARAMS, (fh, b, n, d, rq))
JS_MIO_IRDWR(File_iwrite_at, 1, 0, JS_MIO_IWR_AT_PARAMS, (fh, o, b, n, d, rq))
JS_MIO_IRDWR(File_iwrite_at_all, 1, 1, JS_MIO_IWR_AT_PARAMS, (fh, o, b, n, d, rq))

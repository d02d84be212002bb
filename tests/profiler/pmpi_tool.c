/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pmpi_tool: a small PMPI interposer for the stacking test (test profiler/mpi-coverage), preloaded with the
 * profiler in either order. It counts the calls it sees of a few functions and, in its
 * MPI_Finalize, before it calls PMPI_Finalize (as Darshan writes its log), writes them to
 * $PMPI_TOOL_OUT.<rank> as "name count" lines, with stdio.
 * Two builds: the classic one (MPI_x wrappers calling PMPI_x, linked against libmpi: the usual
 * PMPI tool), and with -DJS_TOOL_DL the way Darshan does it when preloaded: MPI_x and PMPI_x
 * both defined, each calling dlsym(RTLD_NEXT, "PMPI_x").
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* X(name, params, args) */
#define TOOL_FUNCS(X) \
    X(Init, (int *argc, char ***argv), (argc, argv)) \
    X(Send, (const void *b, int n, MPI_Datatype d, int dst, int tag, MPI_Comm c), (b, n, d, dst, tag, c)) \
    X(Recv, (void *b, int n, MPI_Datatype d, int src, int tag, MPI_Comm c, MPI_Status *st), (b, n, d, src, tag, c, st)) \
    X(Barrier, (MPI_Comm c), (c)) \
    X(Allreduce, (const void *s, void *r, int n, MPI_Datatype d, MPI_Op op, MPI_Comm c), (s, r, n, d, op, c)) \
    X(Bcast, (void *b, int n, MPI_Datatype d, int root, MPI_Comm c), (b, n, d, root, c))

enum {
#define TOOL_ENUM(name, params, args) K_##name,
    TOOL_FUNCS(TOOL_ENUM) K_COUNT
};
static const char *const names[] = {
#define TOOL_NAME(name, params, args) #name,
    TOOL_FUNCS(TOOL_NAME)
};
static unsigned long counts[K_COUNT];

#ifdef JS_TOOL_DL
#define TOOL_WRAP(name, params, args) \
    int MPI_##name params \
    { \
        static int(*real) params; \
        if (!real) \
            real = (int(*) params)dlsym(RTLD_NEXT, "PMPI_" #name); \
        __atomic_fetch_add(&counts[K_##name], 1, __ATOMIC_RELAXED); \
        return real args; \
    } \
    int PMPI_##name params __attribute__((alias("MPI_" #name)));
#else
#define TOOL_WRAP(name, params, args) \
    int MPI_##name params \
    { \
        __atomic_fetch_add(&counts[K_##name], 1, __ATOMIC_RELAXED); \
        return PMPI_##name args; \
    }
#endif
TOOL_FUNCS(TOOL_WRAP)

static int tool_finalize(int (*real)(void))
{
    int rank = -1;
    const char *out = getenv("PMPI_TOOL_OUT");
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (out) {
        char path[4096];
        snprintf(path, sizeof path, "%s.%d", out, rank);
        FILE *f = fopen(path, "w");
        if (f) {
            fprintf(f, "Finalize 1\n");
            for (int k = 0; k < K_COUNT; k++)
                fprintf(f, "%s %lu\n", names[k], counts[k]);
            fclose(f);
        }
    }
    return real();
}

#ifdef JS_TOOL_DL
int MPI_Finalize(void)
{
    static int (*real)(void);
    if (!real)
        real = (int (*)(void))dlsym(RTLD_NEXT, "PMPI_Finalize");
    return tool_finalize(real);
}
int PMPI_Finalize(void) __attribute__((alias("MPI_Finalize")));
#else
int MPI_Finalize(void)
{
    return tool_finalize(PMPI_Finalize);
}
#endif

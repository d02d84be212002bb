/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The profiler's modules above the core, as the wrappers call them: the file table (files.c,
 * trees.c), the io_uring rings (async.c) and MPI segments (mpi_segments.c). The core includes
 * none of this: it reaches each module through its hooks (struct js_module, js.h; hooks.c).
 */
#ifndef JS_MODULES_H
#define JS_MODULES_H

#include "js.h"

/* --- the file table (files.c) --- */
extern struct js_file *js_fds[JS_FD_MAX];
extern struct js_file *js_file_pool;

static inline struct js_file *js_fd_file(int fd)
{
    return (fd >= 0 && fd < JS_FD_MAX) ? __atomic_load_n(&js_fds[fd], __ATOMIC_RELAXED) : NULL;
}

/* Descriptors that reached the process without a wrapped open (inherited across exec beyond 0-2,
 * passed over a unix socket, opened by a raw system call): the first counted call on one that has
 * no entry looks it up once (js_fd_adopt, out of line), and a bit remembers that it was looked at,
 * so a pipe or a socket is looked up once, not at every call. Cleared when the descriptor is
 * closed through a wrapper. */
extern uint64_t js_fd_seen[JS_FD_MAX / 64];
struct js_file *js_fd_adopt(int fd);
/* Of those looked at, the ones that are not files (pipes, sockets, terminals, other character
 * devices): a call on one waits for another party (a pipe's writer, the network, a user), so its
 * calls and bytes count but its time is not I/O time (the runtime share shows it idle). */
extern uint64_t js_fd_waits[JS_FD_MAX / 64];
static inline int js_fd_waits_on(int fd)
{
    return (unsigned)fd < JS_FD_MAX && (__atomic_load_n(&js_fd_waits[fd >> 6], __ATOMIC_RELAXED) >> (fd & 63) & 1);
}
/* Descriptors opened with O_SYNC or O_DSYNC (set at open, adopt and dup, cleared at close): each
 * write on one waits for the device, a sync call of its own (sync_calls) besides a write. */
extern uint64_t js_fd_sync[JS_FD_MAX / 64];
static inline int js_fd_syncs(int fd)
{
    return (unsigned)fd < JS_FD_MAX && (__atomic_load_n(&js_fd_sync[fd >> 6], __ATOMIC_RELAXED) >> (fd & 63) & 1);
}
void js_fd_sync_set(int fd, int on);
/* a sync call (or a write on a descriptor above) that took ticks */
void js_sync_count(uint64_t ticks);
/* the entry of fd for a counted call: listed, or looked up now if never looked at */
static inline struct js_file *js_fd_file_or_adopt(int fd)
{
    struct js_file *f = js_fd_file(fd);
    if (JS_LIKELY(f != NULL) || (unsigned)fd >= JS_FD_MAX)
        return f;
    if (JS_LIKELY(__atomic_load_n(&js_fd_seen[fd >> 6], __ATOMIC_RELAXED) & (1ULL << (fd & 63))))
        return NULL;
    return js_fd_adopt(fd);
}
/* A per-file counter: a plain add while the process has one thread, an atomic one after. */
static inline void js_fadd(uint64_t *p, uint64_t n)
{
    if (JS_LIKELY(!js_mt))
        js_add_owned(p, n);
    else
        __atomic_fetch_add(p, n, __ATOMIC_RELAXED);
}

/* trees.c: the length of the prefix of p (absolute, clean, len bytes) naming the software tree
 * its file counts in, or 0 for a file of its own; ro: opened read-only (code counts in trees) */
size_t js_tree_of(const char *p, size_t len, int ro);
/* Called after a successful open of fd by path at a layer; flags as for open(2). */
void js_file_opened(int fd, const char *path, int dirfd, int flags, int layer);
/* a rename(2) family call succeeded: from and to as given, relative to their dirfds */
void js_file_renamed(int from_dirfd, const char *from, int to_dirfd, const char *to);
struct js_file *js_file_lookup_open(const char *path, int layer, int accmode); /* mpiio */
void js_file_closed(int fd);
void js_file_closed_entry(struct js_file *f);
void js_file_dup(int oldfd, int newfd);
void js_cwd_changed(void);

/* --- io_uring rings the profiler watches (async.c) --- */
extern volatile int js_nrings; /* non-zero once one was set up */
void js_ring_closed(int fd);

/* A descriptor closed (or replaced by a copy) through a wrapper: what the rings took so far is
 * counted first, while fd still names its file (fio closes its data file before its ring), and
 * a ring's descriptor ends the ring; then the file table lets go of it. */
static inline void js_fd_closed(int fd)
{
    if (JS_UNLIKELY(js_nrings) && fd >= 0 && fd < JS_FD_MAX)
        js_ring_closed(fd);
    js_file_closed(fd);
}
static inline void js_fd_copied(int oldfd, int newfd)
{
    if (JS_UNLIKELY(js_nrings) && newfd >= 0 && newfd < JS_FD_MAX && oldfd != newfd)
        js_ring_closed(newfd); /* a ring replaced by the copy */
    js_file_dup(oldfd, newfd);
}

/* --- MPI segments (mpi_segments.c) --- */
void js_seg_init_done(void); /* MPI_Init(_thread) returned: segments start now */
/* a boundary passed (the collective's kind, its bytes): one segment ended on t */
void js_seg_boundary(struct js_thread *t, int kind, uint64_t bytes);

/* --- each module's hooks, listed in hooks.c --- */
extern const struct js_module js_files_module, js_async_module, js_seg_module;

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * I/O that does not pass through read/write: memory mappings, Linux AIO (libaio's io_submit),
 * POSIX AIO (aio_read/aio_write/lio_listio, bytes at aio_return), io_uring (liburing's exported
 * functions, and the raw system calls made through libc's syscall()), and the raw system calls
 * a program makes with syscall() that open files (openat2) or move data.
 * What each path counts, and when: docs/profiler.md, "Asynchronous I/O and mappings".
 */
#undef _FORTIFY_SOURCE
#include "config.h"

#include "js.h"
#include "modules.h"

#include <aio.h>
#include <errno.h>
#include <linux/aio_abi.h>
#include <linux/io_uring.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef IORING_SETUP_NO_SQARRAY
#define IORING_SETUP_NO_SQARRAY (1U << 16) /* Linux 6.6: no index array, SQE i at head & mask */
#endif

/* ------------------------------------------------------------------ memory mappings */

/* A mapping of a listed file: one metadata call, its length into the file's mapped_bytes. What
 * the program then reads or writes through the mapping is not seen (no system call). */
static __attribute__((noinline)) void mapped(int fd, size_t len)
{
    int e = errno;
    struct js_thread *t = js_self();
    if (t && !t->in_mpi) {
        struct js_file *f = js_fd_file_or_adopt(fd);
        if (f) {
            js_add(t, JS_M_POSIX_META_CALLS, 1);
            js_fadd(&f->mapped_bytes, len);
        }
    }
    errno = e;
}

JS_EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    JS_REAL(void *, mmap, (void *, size_t, int, int, int, off_t));
    if ((flags & MAP_ANONYMOUS) || fd < 0 || !js_on) /* anonymous memory: nothing more */
        return real_mmap(addr, len, prot, flags, fd, off);
    void *r = real_mmap(addr, len, prot, flags, fd, off);
    if (r != MAP_FAILED)
        mapped(fd, len);
    return r;
}
/* mmap64 is the same function in glibc on 64-bit systems */
extern __typeof(mmap) mmap64 JS_EXPORT __attribute__((alias("mmap"), copy(mmap)));

/* msync: a sync call (posix.c) */

/* ------------------------------------------------------------------ reading user memory */

static size_t iov_sum(const struct iovec *iov, size_t n)
{
    size_t s = 0;
    for (size_t i = 0; i < n && iov; i++)
        s += iov[i].iov_len;
    return s;
}

/* The same for an iovec array that may no longer be valid (an io_uring request counted after
 * the program went on): copied with process_vm_readv on ourselves, which fails instead of
 * faulting. */
static size_t iov_sum_safe(const struct iovec *iov, size_t n)
{
    struct iovec buf[32];
    size_t s = 0;
    for (size_t i = 0; i < n && i < 1024;) {
        size_t k = n - i < 32 ? n - i : 32;
        struct iovec local = { buf, k * sizeof *buf }, remote = { (void *)(iov + i), k * sizeof *buf };
        if (js_syscall6(SYS_process_vm_readv, js_syscall4(SYS_getpid, 0, 0, 0, 0), (long)&local, 1, (long)&remote, 1, 0) != (long)(k * sizeof *buf))
            return s;
        s += iov_sum(buf, k);
        i += k;
    }
    return s;
}

/* calls and bytes on fd without a duration: asynchronous requests and raw system calls */
static void js_count_io(struct js_thread *t, int fd, int wr, uint64_t calls, uint64_t bytes)
{
    struct js_file *f = fd >= 0 ? js_fd_file_or_adopt(fd) : NULL;
    if (JS_UNLIKELY(t->in_mpi)) {
        js_add(t, wr ? JS_M_LOWER_WRITE_BYTES : JS_M_LOWER_READ_BYTES, bytes);
        if (f)
            js_fadd(wr ? &f->lower_write_bytes : &f->lower_read_bytes, bytes);
        return;
    }
    js_add(t, wr ? JS_M_POSIX_WRITE_CALLS : JS_M_POSIX_READ_CALLS, calls);
    js_add(t, wr ? JS_M_POSIX_WRITE_BYTES : JS_M_POSIX_READ_BYTES, bytes);
    if (f) {
        js_fadd(wr ? &f->write_calls : &f->read_calls, calls);
        js_fadd(wr ? &f->write_bytes : &f->read_bytes, bytes);
    }
}

/* ------------------------------------------------------------------ Linux AIO (libaio) */

/* Requests counted when the kernel accepted them, with the bytes asked for: libaio's completions
 * may be reaped in user space (fio's userspace_reap) where no call is seen. */
static __attribute__((noinline)) void count_iocbs(struct iocb **ios, long n)
{
    int e = errno;
    struct js_thread *t = js_self();
    for (long i = 0; t && ios && i < n; i++) {
        struct iocb *cb = ios[i];
        if (cb == NULL)
            continue;
        switch (cb->aio_lio_opcode) {
        case IOCB_CMD_PREAD:
        case IOCB_CMD_PWRITE:
            js_count_io(t, (int)cb->aio_fildes, cb->aio_lio_opcode == IOCB_CMD_PWRITE, 1, cb->aio_nbytes);
            break;
        case IOCB_CMD_PREADV:
        case IOCB_CMD_PWRITEV:
            js_count_io(t, (int)cb->aio_fildes, cb->aio_lio_opcode == IOCB_CMD_PWRITEV, 1,
                        iov_sum((const struct iovec *)(uintptr_t)cb->aio_buf, (size_t)cb->aio_nbytes));
            break;
        default:
            break;
        }
    }
    errno = e;
}

/* libaio's io_submit (libaio.so.1): it returns the number submitted or -errno. libaio 0.3.113
 * makes the system call through libc's syscall(), which we wrap too: inside io_submit that one
 * is not counted again. */
static __thread int js_in_io_submit __attribute__((tls_model("initial-exec")));
int io_submit(void *ctx, long nr, struct iocb **ios);
JS_EXPORT int io_submit(void *ctx, long nr, struct iocb **ios)
{
    JS_REAL(int, io_submit, (void *, long, struct iocb **));
    if (real_io_submit == NULL)
        return -ENOSYS;
    js_in_io_submit++;
    int r = real_io_submit(ctx, nr, ios);
    js_in_io_submit--;
    if (r > 0 && js_on)
        count_iocbs(ios, r);
    return r;
}

/* ------------------------------------------------------------------ POSIX AIO */

/* A request is counted as a call when it is queued; its bytes when the program collects its
 * result with aio_return (the size really moved). The direction and descriptor of each queued
 * aiocb wait in a small table, by address; when it is full, the requested bytes count at
 * queueing instead. A request whose result is never collected counts no bytes. */
#define JS_AIO_SLOTS 1024
#define JS_AIO_PROBE 64
static struct {
    void *cb; /* NULL free, (void *)1 being written */
    int fd, wr;
} js_aio[JS_AIO_SLOTS];

static unsigned aio_slot(const void *cb)
{
    uintptr_t h = (uintptr_t)cb;
    h ^= h >> 17;
    h *= 0x9e3779b97f4a7c15ULL;
    return (unsigned)(h >> 40) % JS_AIO_SLOTS;
}

static void aio_queued(struct js_thread *t, struct aiocb *cb, int wr)
{
    unsigned s = aio_slot(cb);
    for (unsigned i = 0; i < JS_AIO_PROBE; i++) {
        unsigned k = (s + i) % JS_AIO_SLOTS;
        void *cur = __atomic_load_n(&js_aio[k].cb, __ATOMIC_ACQUIRE);
        if (cur == cb || (cur == NULL && __atomic_compare_exchange_n(&js_aio[k].cb, &cur, (void *)1, 0,
                                                                     __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))) {
            js_aio[k].fd = cb->aio_fildes;
            js_aio[k].wr = wr;
            __atomic_store_n(&js_aio[k].cb, cb, __ATOMIC_RELEASE);
            js_count_io(t, cb->aio_fildes, wr, 1, 0);
            return;
        }
    }
    js_count_io(t, cb->aio_fildes, wr, 1, cb->aio_nbytes); /* no room: what was asked for */
}

static void aio_returned(struct aiocb *cb, ssize_t r)
{
    unsigned s = aio_slot(cb);
    for (unsigned i = 0; i < JS_AIO_PROBE; i++) {
        unsigned k = (s + i) % JS_AIO_SLOTS;
        void *cur = cb;
        if (__atomic_load_n(&js_aio[k].cb, __ATOMIC_ACQUIRE) == cb &&
            __atomic_compare_exchange_n(&js_aio[k].cb, &cur, (void *)1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
            int fd = js_aio[k].fd, wr = js_aio[k].wr;
            __atomic_store_n(&js_aio[k].cb, NULL, __ATOMIC_RELEASE);
            struct js_thread *t = js_self();
            if (t && r > 0)
                js_count_io(t, fd, wr, 0, (uint64_t)r);
            return;
        }
    }
}

#define JS_AIO_RW(name, cbtype, wr) \
    JS_EXPORT int name(cbtype *cb) \
    { \
        JS_REAL(int, name, (cbtype *)); \
        int r = real_##name(cb); \
        if (r == 0 && js_on) { \
            int e = errno; \
            struct js_thread *t = js_self(); \
            if (t) \
                aio_queued(t, (struct aiocb *)(void *)cb, wr); \
            errno = e; \
        } \
        return r; \
    }
/* struct aiocb64 is struct aiocb on 64-bit systems */
_Static_assert(sizeof(struct aiocb) == sizeof(struct aiocb64), "aiocb64 is aiocb");
JS_AIO_RW(aio_read, struct aiocb, 0)
JS_AIO_RW(aio_write, struct aiocb, 1)
JS_AIO_RW(aio_read64, struct aiocb64, 0)
JS_AIO_RW(aio_write64, struct aiocb64, 1)

#define JS_LIO(name, cbtype) \
    JS_EXPORT int name(int mode, cbtype *const list[], int n, struct sigevent *sev) \
    { \
        JS_REAL(int, name, (int, cbtype *const[], int, struct sigevent *)); \
        int r = real_##name(mode, list, n, sev); \
        if (r == 0 && js_on) { \
            int e = errno; \
            struct js_thread *t = js_self(); \
            for (int i = 0; t && i < n; i++) \
                if (list[i] && (list[i]->aio_lio_opcode == LIO_READ || list[i]->aio_lio_opcode == LIO_WRITE)) \
                    aio_queued(t, (struct aiocb *)(void *)list[i], list[i]->aio_lio_opcode == LIO_WRITE); \
            errno = e; \
        } \
        return r; \
    }
JS_LIO(lio_listio, struct aiocb)
JS_LIO(lio_listio64, struct aiocb64)

#define JS_AIO_RETURN(name, cbtype) \
    JS_EXPORT ssize_t name(cbtype *cb) \
    { \
        JS_REAL(ssize_t, name, (cbtype *)); \
        ssize_t r = real_##name(cb); \
        if (js_on) { \
            int e = errno; \
            aio_returned((struct aiocb *)(void *)cb, r); \
            errno = e; \
        } \
        return r; \
    }
JS_AIO_RETURN(aio_return, struct aiocb)
JS_AIO_RETURN(aio_return64, struct aiocb64)

/* ------------------------------------------------------------------ io_uring */

/* Each ring set up through a path we see (liburing's io_uring_queue_mmap, which its
 * io_uring_queue_init* call, liburing's io_uring_setup, or syscall(SYS_io_uring_setup)) gets a
 * read-only shared mapping of its submission ring and SQE array, made by us from the ring's
 * descriptor. The kernel's SQ head counts the requests it has taken; each time we get control
 * for that ring (after liburing's submit and wait functions, after syscall(SYS_io_uring_enter),
 * when the ring's descriptor is closed, at the image's end) the requests between the head we
 * saw last and the head now are read from the SQE array and counted: READ/WRITE/READV/WRITEV
 * and their _FIXED forms, one call and their length each, on their descriptor (a fixed-file
 * index counts in the totals only). Right after an enter the SQEs are those submitted; counted
 * later (a program that enters with its own inline system call, as fio's io_uring engine
 * does), a slot may have been reused: the number of requests is exact, their bytes are those
 * of the requests found in the slots (exact when they are all alike, as fio's). */
#define JS_RINGS 64
struct js_ring {
    int fd; /* -1: free */
    const void *key; /* liburing's struct io_uring, or NULL */
    const uint32_t *khead, *array;
    const char *sqes;
    uint32_t mask, entries, shift, seen;
    void *sqmap, *sqemap;
    size_t sqlen, sqelen;
};
static struct js_ring js_ring[JS_RINGS] = { [0 ... JS_RINGS - 1] = { .fd = -1 } };
volatile int js_nrings;
static pthread_mutex_t js_rings_mu = PTHREAD_MUTEX_INITIALIZER;
/* set while this thread holds js_rings_mu: a signal handler that closes a descriptor meanwhile
 * must not wait for its own thread (the ring's mappings then stay until the image ends) */
static __thread int js_rings_busy __attribute__((tls_model("initial-exec")));
static int rings_lock(void) { return js_lock_mine(&js_rings_mu, &js_rings_busy, 1); }
static void rings_unlock(void) { js_unlock_mine(&js_rings_mu, &js_rings_busy); }

static void count_sqe(struct js_thread *t, const struct io_uring_sqe *sqe, uint64_t mult, int later)
{
    int wr;
    uint64_t bytes;
    switch (sqe->opcode) {
    case IORING_OP_READ:
    case IORING_OP_READ_FIXED:
        wr = 0, bytes = sqe->len;
        break;
    case IORING_OP_WRITE:
    case IORING_OP_WRITE_FIXED:
        wr = 1, bytes = sqe->len;
        break;
    case IORING_OP_READV:
    case IORING_OP_WRITEV:
        wr = sqe->opcode == IORING_OP_WRITEV;
        bytes = later ? iov_sum_safe((const struct iovec *)(uintptr_t)sqe->addr, sqe->len)
                      : iov_sum((const struct iovec *)(uintptr_t)sqe->addr, sqe->len);
        break;
    default:
        return;
    }
    int fd = (sqe->flags & IOSQE_FIXED_FILE) ? -1 : sqe->fd;
    js_count_io(t, fd, wr, mult, bytes * mult);
}

/* count what the kernel took from ring r since we last looked; later: not right after an enter */
static void ring_count(struct js_thread *t, struct js_ring *r, int later)
{
    uint32_t head = __atomic_load_n(r->khead, __ATOMIC_ACQUIRE);
    uint32_t old = __atomic_load_n(&r->seen, __ATOMIC_RELAXED);
    if (head == old || !__atomic_compare_exchange_n(&r->seen, &old, head, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        return;
    uint32_t n = head - old, full = n / r->entries, rem = n % r->entries;
    uint32_t span = full ? r->entries : rem;
    for (uint32_t i = 0; i < span; i++) {
        uint32_t pos = (old + i) & r->mask;
        uint32_t idx = r->array ? __atomic_load_n(&r->array[pos], __ATOMIC_RELAXED) : pos;
        if (idx < r->entries)
            count_sqe(t, (const struct io_uring_sqe *)(const void *)(r->sqes + ((size_t)idx << r->shift)),
                      full + (i < rem), later);
    }
}

static void ring_add(int fd, const struct io_uring_params *p, const void *key)
{
    if (fd < 0 || p == NULL || p->sq_entries == 0 || (p->sq_entries & (p->sq_entries - 1)))
        return;
    size_t sqlen = p->sq_off.head;
    const uint32_t offs[] = { p->sq_off.tail, p->sq_off.ring_mask, p->sq_off.ring_entries, p->sq_off.flags,
                              p->sq_off.dropped };
    for (unsigned i = 0; i < sizeof offs / sizeof offs[0]; i++)
        if (offs[i] > sqlen)
            sqlen = offs[i];
    sqlen += 4;
    int has_array = !(p->flags & IORING_SETUP_NO_SQARRAY);
    if (has_array && p->sq_off.array + (size_t)p->sq_entries * 4 > sqlen)
        sqlen = p->sq_off.array + (size_t)p->sq_entries * 4;
    uint32_t shift = (p->flags & IORING_SETUP_SQE128) ? 7 : 6;
    size_t sqelen = (size_t)p->sq_entries << shift;
    void *sq = js_sys_mmap(NULL, sqlen, PROT_READ, MAP_SHARED, fd, (off_t)IORING_OFF_SQ_RING);
    if (sq == MAP_FAILED)
        return;
    void *sqe = js_sys_mmap(NULL, sqelen, PROT_READ, MAP_SHARED, fd, (off_t)IORING_OFF_SQES);
    if (sqe == MAP_FAILED) {
        js_sys_munmap(sq, sqlen);
        return;
    }
    if (!rings_lock()) {
        js_sys_munmap(sq, sqlen);
        js_sys_munmap(sqe, sqelen);
        return;
    }
    struct js_ring *r = NULL;
    for (int i = 0; i < JS_RINGS && !r; i++)
        if (js_ring[i].fd == fd)
            r = &js_ring[i]; /* set up again on the same descriptor: the old one is gone */
    for (int i = 0; i < JS_RINGS && !r; i++)
        if (js_ring[i].fd < 0)
            r = &js_ring[i];
    if (r == NULL) { /* too many rings: this one is not counted */
        rings_unlock();
        js_sys_munmap(sq, sqlen);
        js_sys_munmap(sqe, sqelen);
        return;
    }
    if (r->fd >= 0) {
        js_sys_munmap(r->sqmap, r->sqlen);
        js_sys_munmap(r->sqemap, r->sqelen);
    } else {
        js_nrings++;
    }
    r->key = key;
    r->sqmap = sq, r->sqlen = sqlen, r->sqemap = sqe, r->sqelen = sqelen;
    r->khead = (const uint32_t *)(const void *)((const char *)sq + p->sq_off.head);
    r->array = has_array ? (const uint32_t *)(const void *)((const char *)sq + p->sq_off.array) : NULL;
    r->sqes = sqe;
    r->entries = p->sq_entries;
    r->mask = p->sq_entries - 1;
    r->shift = shift;
    r->seen = __atomic_load_n(r->khead, __ATOMIC_ACQUIRE);
    __atomic_store_n(&r->fd, fd, __ATOMIC_RELEASE);
    rings_unlock();
}

/* the ring goes: count what is left, drop our mappings. Caller holds js_rings_mu. */
static void ring_drop(struct js_ring *r)
{
    struct js_thread *t = js_self();
    if (t)
        ring_count(t, r, 1);
    js_sys_munmap(r->sqmap, r->sqlen);
    js_sys_munmap(r->sqemap, r->sqelen);
    __atomic_store_n(&r->fd, -1, __ATOMIC_RELEASE);
    r->key = NULL;
    js_nrings--;
}

/* fd is being closed (or replaced by dup2) while rings exist: what the rings took so far is
 * counted first, while fd still names its file (fio closes its data file before its ring), and
 * if fd is a ring's, the ring goes */
void js_ring_closed(int fd)
{
    int e = errno;
    struct js_thread *t = js_self();
    if (rings_lock()) {
        for (int i = 0; i < JS_RINGS; i++)
            if (js_ring[i].fd >= 0) {
                if (js_ring[i].fd == fd)
                    ring_drop(&js_ring[i]);
                else if (t)
                    ring_count(t, &js_ring[i], 1);
            }
        rings_unlock();
    }
    errno = e;
}

/* the image ends: what every ring took since we last looked */
static void rings_catch_up(void)
{
    if (!js_nrings)
        return;
    struct js_thread *t = js_self();
    if (t == NULL || !rings_lock())
        return;
    for (int i = 0; i < JS_RINGS; i++)
        if (js_ring[i].fd >= 0)
            ring_count(t, &js_ring[i], 1);
    rings_unlock();
}

/* after a call that may have entered the kernel for a ring, known by descriptor or by liburing's
 * struct: count what it took */
static __attribute__((noinline)) void ring_entered(int fd, const void *key)
{
    int e = errno;
    struct js_thread *t = js_self();
    if (t)
        for (int i = 0; i < JS_RINGS; i++) {
            struct js_ring *r = &js_ring[i];
            int rfd = __atomic_load_n(&r->fd, __ATOMIC_ACQUIRE);
            if (rfd >= 0 && (key ? r->key == key : rfd == fd)) {
                ring_count(t, r, 0);
                break;
            }
        }
    errno = e;
}

/* liburing (liburing.so.2, 2.2 on makes its system calls inline): its exported functions */
struct io_uring;
struct io_uring_cqe;
struct __kernel_timespec;
int io_uring_queue_mmap(int fd, struct io_uring_params *p, struct io_uring *ring);
int io_uring_setup(unsigned entries, struct io_uring_params *p);
void io_uring_queue_exit(struct io_uring *ring);

JS_EXPORT int io_uring_queue_mmap(int fd, struct io_uring_params *p, struct io_uring *ring)
{
    JS_REAL(int, io_uring_queue_mmap, (int, struct io_uring_params *, struct io_uring *));
    if (real_io_uring_queue_mmap == NULL)
        return -ENOSYS;
    int r = real_io_uring_queue_mmap(fd, p, ring);
    if (r == 0 && js_on) {
        int e = errno;
        ring_add(fd, p, ring);
        errno = e;
    }
    return r;
}

JS_EXPORT int io_uring_setup(unsigned entries, struct io_uring_params *p)
{
    JS_REAL(int, io_uring_setup, (unsigned, struct io_uring_params *));
    if (real_io_uring_setup == NULL)
        return -ENOSYS;
    int r = real_io_uring_setup(entries, p);
    if (r >= 0 && js_on) {
        int e = errno;
        ring_add(r, p, NULL);
        errno = e;
    }
    return r;
}

JS_EXPORT void io_uring_queue_exit(struct io_uring *ring)
{
    JS_REAL(void, io_uring_queue_exit, (struct io_uring *));
    if (js_nrings) {
        int e = errno;
        if (rings_lock()) {
            for (int i = 0; i < JS_RINGS; i++)
                if (js_ring[i].fd >= 0 && js_ring[i].key == ring)
                    ring_drop(&js_ring[i]);
            rings_unlock();
        }
        errno = e;
    }
    if (real_io_uring_queue_exit)
        real_io_uring_queue_exit(ring);
}

#define JS_URING(name, params, args, fd, key) \
    int name params; \
    JS_EXPORT int name params \
    { \
        JS_REAL(int, name, params); \
        if (real_##name == NULL) \
            return -ENOSYS; \
        int r = real_##name args; \
        if (js_nrings) \
            ring_entered(fd, key); \
        return r; \
    }
JS_URING(io_uring_submit, (struct io_uring * ring), (ring), -1, ring)
JS_URING(io_uring_submit_and_wait, (struct io_uring * ring, unsigned n), (ring, n), -1, ring)
JS_URING(io_uring_submit_and_wait_timeout,
         (struct io_uring * ring, struct io_uring_cqe **c, unsigned n, struct __kernel_timespec *ts, sigset_t *sm),
         (ring, c, n, ts, sm), -1, ring)
JS_URING(io_uring_submit_and_get_events, (struct io_uring * ring), (ring), -1, ring)
JS_URING(io_uring_get_events, (struct io_uring * ring), (ring), -1, ring)
JS_URING(__io_uring_get_cqe, (struct io_uring * ring, struct io_uring_cqe **c, unsigned s, unsigned n, sigset_t *sm),
         (ring, c, s, n, sm), -1, ring)
JS_URING(io_uring_wait_cqes,
         (struct io_uring * ring, struct io_uring_cqe **c, unsigned n, struct __kernel_timespec *ts, sigset_t *sm),
         (ring, c, n, ts, sm), -1, ring)
JS_URING(io_uring_wait_cqe_timeout, (struct io_uring * ring, struct io_uring_cqe **c, struct __kernel_timespec *ts),
         (ring, c, ts), -1, ring)
JS_URING(io_uring_enter, (unsigned fd, unsigned s, unsigned m, unsigned fl, sigset_t *sm), (fd, s, m, fl, sm), (int)fd,
         NULL)
JS_URING(io_uring_enter2, (unsigned fd, unsigned s, unsigned m, unsigned fl, sigset_t *sm, size_t sz),
         (fd, s, m, fl, sm, sz), (int)fd, NULL)

/* ------------------------------------------------------------------ syscall() */

/* Programs make system calls glibc has no wrapper for (openat2) or that they prefer raw (fio's
 * io_uring_setup, libaio-less io_submit) through libc's syscall(): those are counted like their
 * wrappers; every other number goes straight on. All six arguments are forwarded, as libc's
 * syscall() takes them. */
static __attribute__((noinline)) void after_syscall(long nr, long r, long a, long b, long c)
{
    int e = errno;
    struct js_thread *t = js_self();
    if (t == NULL) {
        errno = e;
        return;
    }
    switch (nr) {
    case SYS_io_uring_setup:
        if (r >= 0)
            ring_add((int)r, (const struct io_uring_params *)b, NULL);
        break;
    case SYS_io_uring_enter:
        if (js_nrings)
            ring_entered((int)a, NULL);
        break;
    case SYS_io_submit:
        if (r > 0 && !js_in_io_submit)
            count_iocbs((struct iocb **)c, r);
        break;
    case SYS_openat2:
        if (!t->in_mpi)
            js_add(t, JS_M_POSIX_OPEN_CALLS, 1);
        if (r >= 0 && c)
            js_file_opened((int)r, (const char *)b, (int)a, (int)((const struct open_how *)c)->flags, JS_LAYER_POSIX);
        break;
    case SYS_read:
    case SYS_pread64:
        js_count_io(t, (int)a, 0, 1, r > 0 ? (uint64_t)r : 0);
        break;
    case SYS_write:
    case SYS_pwrite64:
        js_count_io(t, (int)a, 1, 1, r > 0 ? (uint64_t)r : 0);
        break;
    default:
        break;
    }
    errno = e;
}

JS_EXPORT long syscall(long nr, ...)
{
    JS_REAL(long, syscall, (long, ...));
    va_list ap;
    va_start(ap, nr);
    long a = va_arg(ap, long), b = va_arg(ap, long), c = va_arg(ap, long);
    long d = va_arg(ap, long), e = va_arg(ap, long), f = va_arg(ap, long);
    va_end(ap);
    switch (nr) {
    case SYS_io_uring_setup:
    case SYS_io_uring_enter:
    case SYS_io_submit:
    case SYS_openat2:
    case SYS_read:
    case SYS_pread64:
    case SYS_write:
    case SYS_pwrite64:
        break;
    default:
        return real_syscall(nr, a, b, c, d, e, f);
    }
    long r = real_syscall(nr, a, b, c, d, e, f);
    if (js_on)
        after_syscall(nr, r, a, b, c);
    return r;
}

const struct js_module js_async_module = {
    .name = "async",
    .on_image_end = rings_catch_up,
};

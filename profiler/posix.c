/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * POSIX I/O wrappers: each finds the next definition once (RTLD_NEXT, so other preload tools
 * still stack), calls it, and counts into the calling thread's block: no lock and no errno
 * change on the hot path; every call is timed (two reads of the time-stamp counter, ~3 ns each:
 * less than sampling's error, which swung a step's I/O time 54-658 ms between identical runs).
 */
#undef _FORTIFY_SOURCE /* we define read() etc. ourselves: no inline fortify wrappers here */
#include "config.h"

#include "js.h"
#include "modules.h"
#include "profile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/* glibc-internal entry points that programs call; no header declares them */
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
ssize_t __pread_chk(int fd, void *buf, size_t n, off_t o, size_t buflen);
ssize_t __pread64_chk(int fd, void *buf, size_t n, off64_t o, size_t buflen);
int __vdprintf_chk(int fd, int flag, const char *fmt, va_list ap);
int __dprintf_chk(int fd, int flag, const char *fmt, ...);
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);
int __xstat(int v, const char *p, struct stat *s);
int __lxstat(int v, const char *p, struct stat *s);
int __fxstat(int v, int fd, struct stat *s);
int __xstat64(int v, const char *p, struct stat64 *s);
int __lxstat64(int v, const char *p, struct stat64 *s);
int __fxstat64(int v, int fd, struct stat64 *s);

/* --- reads and writes --- */
static inline void after_rw(struct js_thread *t, int fd, ssize_t r, int wr, uint64_t t0)
{
    uint64_t bytes = r > 0 ? (uint64_t)r : 0;
    struct js_file *f = js_fd_file_or_adopt(fd);
    if (JS_UNLIKELY(t->in_mpi)) { /* issued by the MPI library: the lower layer of MPI */
        js_add(t, wr ? JS_M_LOWER_WRITE_BYTES : JS_M_LOWER_READ_BYTES, bytes);
        if (f)
            js_fadd(wr ? &f->lower_write_bytes : &f->lower_read_bytes, bytes);
        return;
    }
    js_add(t, wr ? JS_M_POSIX_WRITE_CALLS : JS_M_POSIX_READ_CALLS, 1);
    js_add(t, wr ? JS_M_POSIX_WRITE_BYTES : JS_M_POSIX_READ_BYTES, bytes);
    if (wr && JS_UNLIKELY(js_fd_syncs(fd))) /* the write waited for the device: a sync too */
        js_sync_count(t0 ? js_ticks() - t0 : 0);
    if (JS_LIKELY(t0 != 0) && (f != NULL || !js_fd_waits_on(fd))) /* t0 0: counted with another call */
        js_add(t, JS_M_POSIX_NS, js_ticks() - t0);
    if (f) {
        js_fadd(wr ? &f->write_calls : &f->read_calls, 1);
        js_fadd(wr ? &f->write_bytes : &f->read_bytes, bytes);
    }
}

/* RW(name, (params), (args), is-write): the wrapper of a call on descriptor fd */
#define JS_RW(name, params, args, wr) \
    JS_EXPORT ssize_t name params \
    { \
        JS_REAL(ssize_t, name, params); \
        struct js_thread *t = js_self(); \
        if (!t) \
            return real_##name args; \
        uint64_t t0 = js_ticks(); \
        ssize_t r = real_##name args; \
        after_rw(t, fd, r, wr, t0); \
        return r; \
    }
/* The same for a call that libc makes as one system call, (sys) its number and arguments: made
 * by the wrapper itself where JS_DIRECT allows (js.h), one return level less. ok: the
 * condition under which libc would make it (a fortified call's length check). */
#define JS_RW_SYS(name, params, args, wr, ok, sys) \
    JS_EXPORT ssize_t name params \
    { \
        JS_REAL_LIBC(ssize_t, name, params); \
        struct js_thread *t = js_self(); \
        if (!t) \
            return real_##name args; \
        uint64_t t0 = js_ticks(); \
        ssize_t r = JS_DIRECT(name) && (ok) ? js_sysret(js_syscall4 sys) : real_##name args; \
        after_rw(t, fd, r, wr, t0); \
        return r; \
    }

#define JS_SYS3(nr, a, b, c) (nr, (long)(a), (long)(b), (long)(c), 0)
#define JS_SYS4(nr, a, b, c, d) (nr, (long)(a), (long)(b), (long)(c), (long)(d))
JS_RW_SYS(read, (int fd, void *buf, size_t n), (fd, buf, n), 0, 1, JS_SYS3(SYS_read, fd, buf, n))
JS_RW_SYS(write, (int fd, const void *buf, size_t n), (fd, buf, n), 1, 1, JS_SYS3(SYS_write, fd, buf, n))
JS_RW_SYS(pread, (int fd, void *buf, size_t n, off_t o), (fd, buf, n, o), 0, 1, JS_SYS4(SYS_pread64, fd, buf, n, o))
JS_RW_SYS(pwrite, (int fd, const void *buf, size_t n, off_t o), (fd, buf, n, o), 1, 1, JS_SYS4(SYS_pwrite64, fd, buf, n, o))
JS_RW_SYS(pread64, (int fd, void *buf, size_t n, off64_t o), (fd, buf, n, o), 0, 1, JS_SYS4(SYS_pread64, fd, buf, n, o))
JS_RW_SYS(pwrite64, (int fd, const void *buf, size_t n, off64_t o), (fd, buf, n, o), 1, 1, JS_SYS4(SYS_pwrite64, fd, buf, n, o))
JS_RW(readv, (int fd, const struct iovec *iov, int c), (fd, iov, c), 0)
JS_RW(writev, (int fd, const struct iovec *iov, int c), (fd, iov, c), 1)
JS_RW(preadv, (int fd, const struct iovec *iov, int c, off_t o), (fd, iov, c, o), 0)
JS_RW(pwritev, (int fd, const struct iovec *iov, int c, off_t o), (fd, iov, c, o), 1)
JS_RW(preadv64, (int fd, const struct iovec *iov, int c, off64_t o), (fd, iov, c, o), 0)
JS_RW(pwritev64, (int fd, const struct iovec *iov, int c, off64_t o), (fd, iov, c, o), 1)
/* what programs built with _FORTIFY_SOURCE call instead of read/pread */
JS_RW_SYS(__read_chk, (int fd, void *buf, size_t n, size_t buflen), (fd, buf, n, buflen), 0, n <= buflen,
          JS_SYS3(SYS_read, fd, buf, n))
JS_RW_SYS(__pread_chk, (int fd, void *buf, size_t n, off_t o, size_t buflen), (fd, buf, n, o, buflen), 0, n <= buflen,
          JS_SYS4(SYS_pread64, fd, buf, n, o))
JS_RW_SYS(__pread64_chk, (int fd, void *buf, size_t n, off64_t o, size_t buflen), (fd, buf, n, o, buflen), 0,
          n <= buflen, JS_SYS4(SYS_pread64, fd, buf, n, o))

JS_RW(preadv2, (int fd, const struct iovec *iov, int c, off_t o, int fl), (fd, iov, c, o, fl), 0)
JS_RW(pwritev2, (int fd, const struct iovec *iov, int c, off_t o, int fl), (fd, iov, c, o, fl), 1)
/* what programs built with -D_FILE_OFFSET_BITS=64 call for preadv2/pwritev2 (fio's pvsync2) */
JS_RW(preadv64v2, (int fd, const struct iovec *iov, int c, off64_t o, int fl), (fd, iov, c, o, fl), 0)
JS_RW(pwritev64v2, (int fd, const struct iovec *iov, int c, off64_t o, int fl), (fd, iov, c, o, fl), 1)

/* In-kernel copies (cp and cat of coreutils use copy_file_range): one read of the bytes moved on
 * the source and one write on the destination. */
static void after_copy(struct js_thread *t, int in, int out, ssize_t r, uint64_t t0)
{
    after_rw(t, in, r, 0, t0);
    after_rw(t, out, r, 1, 0); /* its time is the read's */
}

#define JS_COPY(rtype, name, params, args, in, out) \
    JS_EXPORT rtype name params \
    { \
        JS_REAL(rtype, name, params); \
        struct js_thread *t = js_self(); \
        if (!t) \
            return real_##name args; \
        uint64_t t0 = js_ticks(); \
        rtype r = real_##name args; \
        after_copy(t, in, out, (ssize_t)r, t0); \
        return r; \
    }
JS_COPY(ssize_t, copy_file_range, (int in, off64_t *oi, int out, off64_t *oo, size_t n, unsigned fl),
        (in, oi, out, oo, n, fl), in, out)
JS_COPY(ssize_t, sendfile, (int out, int in, off_t *o, size_t n), (out, in, o, n), in, out)
JS_COPY(ssize_t, sendfile64, (int out, int in, off64_t *o, size_t n), (out, in, o, n), in, out)
/* splice moves bytes between a descriptor and a pipe: read on one side, written on the other */
JS_COPY(ssize_t, splice, (int in, loff_t *oi, int out, loff_t *oo, size_t n, unsigned fl), (in, oi, out, oo, n, fl), in,
        out)

/* dprintf and vdprintf: formatted output straight to a descriptor, a write of what they return
 * (their own write inside libc is not seen again) */
JS_EXPORT int vdprintf(int fd, const char *fmt, va_list ap)
{
    JS_REAL(int, vdprintf, (int, const char *, va_list));
    struct js_thread *t = js_self();
    if (!t)
        return real_vdprintf(fd, fmt, ap);
    uint64_t t0 = js_ticks();
    int r = real_vdprintf(fd, fmt, ap);
    after_rw(t, fd, r, 1, t0);
    return r;
}

JS_EXPORT int dprintf(int fd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vdprintf(fd, fmt, ap);
    va_end(ap);
    return r;
}

/* the same, as programs built with _FORTIFY_SOURCE call them */
JS_EXPORT int __vdprintf_chk(int fd, int flag, const char *fmt, va_list ap)
{
    JS_REAL(int, __vdprintf_chk, (int, int, const char *, va_list));
    struct js_thread *t = js_self();
    if (!t)
        return real___vdprintf_chk(fd, flag, fmt, ap);
    uint64_t t0 = js_ticks();
    int r = real___vdprintf_chk(fd, flag, fmt, ap);
    after_rw(t, fd, r, 1, t0);
    return r;
}

JS_EXPORT int __dprintf_chk(int fd, int flag, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = __vdprintf_chk(fd, flag, fmt, ap);
    va_end(ap);
    return r;
}

/* --- opens --- */

/* direct: the wrapper may make the system call itself (JS_DIRECT) */
static int open_common(int (*real)(const char *, int, ...), int dirfd, int (*realat)(int, const char *, int, ...),
                       const char *path, int flags, mode_t mode, int direct)
{
    struct js_thread *t = js_self();
    uint64_t t0 = t ? js_ticks() : 0;
    int fd = direct && t ? (int)js_sysret(js_syscall4(SYS_openat, dirfd, (long)path, flags, mode))
                         : realat ? realat(dirfd, path, flags, mode) : real(path, flags, mode);
    if (t) {
        if (!t->in_mpi) {
            js_add(t, JS_M_POSIX_OPEN_CALLS, 1);
            js_add(t, JS_M_POSIX_NS, js_ticks() - t0);
        }
        if (fd >= 0)
            js_file_opened(fd, path, dirfd, flags, JS_LAYER_POSIX);
    }
    return fd;
}

#define JS_NEEDS_MODE(f) (((f) & O_CREAT) || (((f) & O_TMPFILE) == O_TMPFILE))
/* libc's open and openat are one openat system call (the mode only when the flags need one) */
#define JS_OPEN(name) \
    JS_EXPORT int name(const char *path, int flags, ...) \
    { \
        JS_REAL_LIBC(int, name, (const char *, int, ...)); \
        mode_t mode = 0; \
        if (JS_NEEDS_MODE(flags)) { \
            va_list ap; \
            va_start(ap, flags); \
            mode = (mode_t)va_arg(ap, int); \
            va_end(ap); \
        } \
        return open_common(real_##name, AT_FDCWD, NULL, path, flags, mode, JS_DIRECT(name)); \
    }
#define JS_OPENAT(name) \
    JS_EXPORT int name(int dirfd, const char *path, int flags, ...) \
    { \
        JS_REAL_LIBC(int, name, (int, const char *, int, ...)); \
        mode_t mode = 0; \
        if (JS_NEEDS_MODE(flags)) { \
            va_list ap; \
            va_start(ap, flags); \
            mode = (mode_t)va_arg(ap, int); \
            va_end(ap); \
        } \
        return open_common(NULL, dirfd, real_##name, path, flags, mode, JS_DIRECT(name)); \
    }
JS_OPEN(open)
JS_OPEN(open64)
JS_OPENAT(openat)
JS_OPENAT(openat64)

static int open2(int (*real)(const char *, int, ...), const char *path, int flags)
{
    return open_common(real, AT_FDCWD, NULL, path, flags, 0, 0);
}
/* fortified opens without a mode argument */
JS_EXPORT int __open_2(const char *path, int flags)
{
    JS_REAL(int, open, (const char *, int, ...));
    return open2(real_open, path, flags);
}
JS_EXPORT int __open64_2(const char *path, int flags)
{
    JS_REAL(int, open64, (const char *, int, ...));
    return open2(real_open64, path, flags);
}
JS_EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
    JS_REAL(int, openat, (int, const char *, int, ...));
    return open_common(NULL, dirfd, real_openat, path, flags, 0, 0);
}
JS_EXPORT int __openat64_2(int dirfd, const char *path, int flags)
{
    JS_REAL(int, openat64, (int, const char *, int, ...));
    return open_common(NULL, dirfd, real_openat64, path, flags, 0, 0);
}
JS_EXPORT int creat(const char *path, mode_t mode)
{
    JS_REAL(int, open, (const char *, int, ...));
    return open_common(real_open, AT_FDCWD, NULL, path, O_CREAT | O_WRONLY | O_TRUNC, mode, 0);
}
JS_EXPORT int creat64(const char *path, mode_t mode)
{
    JS_REAL(int, open64, (const char *, int, ...));
    return open_common(real_open64, AT_FDCWD, NULL, path, O_CREAT | O_WRONLY | O_TRUNC, mode, 0);
}

/* --- descriptors --- */
JS_EXPORT int close(int fd)
{
    JS_REAL_LIBC(int, close, (int));
    struct js_thread *t = js_self();
    if (!t)
        return real_close(fd);
    js_fd_closed(fd);
    uint64_t t0 = js_ticks();
    int r = JS_DIRECT(close) ? (int)js_sysret(js_syscall4(SYS_close, fd, 0, 0, 0)) : real_close(fd);
    if (!t->in_mpi)
        js_add_call(t, JS_M_POSIX_META_CALLS, JS_M_POSIX_NS, t0);
    return r;
}

JS_EXPORT int close_range(unsigned first, unsigned last, int flags)
{
    JS_REAL(int, close_range, (unsigned, unsigned, int));
    int r = real_close_range(first, last, flags);
    if (r == 0 && js_on && !(flags & CLOSE_RANGE_CLOEXEC))
        for (unsigned fd = first; fd <= last && fd < JS_FD_MAX; fd++)
            js_fd_closed((int)fd);
    return r;
}

JS_EXPORT void closefrom(int low)
{
    JS_REAL(void, closefrom, (int));
    real_closefrom(low);
    if (js_on)
        for (int fd = low < 0 ? 0 : low; fd < JS_FD_MAX; fd++)
            if (js_fds[fd])
                js_fd_closed(fd);
}

JS_EXPORT int dup(int fd)
{
    JS_REAL(int, dup, (int));
    int r = real_dup(fd);
    if (r >= 0 && js_on)
        js_fd_copied(fd, r);
    return r;
}

JS_EXPORT int dup2(int fd, int nfd)
{
    JS_REAL(int, dup2, (int, int));
    int r = real_dup2(fd, nfd);
    if (r >= 0 && js_on)
        js_fd_copied(fd, r);
    return r;
}

JS_EXPORT int dup3(int fd, int nfd, int flags)
{
    JS_REAL(int, dup3, (int, int, int));
    int r = real_dup3(fd, nfd, flags);
    if (r >= 0 && js_on)
        js_fd_copied(fd, r);
    return r;
}

/* fcntl's F_DUPFD and F_DUPFD_CLOEXEC copy a descriptor like dup: the copy keeps its file.
 * The third argument is taken as glibc takes it (one word, whatever the command). */
static int fcntl_common(int (*real)(int, int, ...), int fd, int cmd, va_list ap)
{
    void *arg = va_arg(ap, void *);
    int r = real(fd, cmd, arg);
    if (r >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) && js_on)
        js_fd_copied(fd, r);
    return r;
}

JS_EXPORT int fcntl(int fd, int cmd, ...)
{
    JS_REAL(int, fcntl, (int, int, ...));
    va_list ap;
    va_start(ap, cmd);
    int r = fcntl_common(real_fcntl, fd, cmd, ap);
    va_end(ap);
    return r;
}

JS_EXPORT int fcntl64(int fd, int cmd, ...)
{
    JS_REAL(int, fcntl64, (int, int, ...));
    va_list ap;
    va_start(ap, cmd);
    int r = fcntl_common(real_fcntl64, fd, cmd, ap);
    va_end(ap);
    return r;
}

/* --- metadata: counted as posix_meta_calls, their time I/O time (an fsync, a stat storm or an
 * unlink on a busy file system can be most of it) --- */
#define JS_META(ret, name, params, args) JS_TIMED_CALL(ret, name, params, args, JS_M_POSIX_META_CALLS, JS_M_POSIX_NS)

/* a rename (from, to relative to their directories): counted; when it succeeded and moved a file
 * to a new name, kept in order (files.c) */
static int after_rename(struct js_thread *t, uint64_t t0, int r, int moves, int da, const char *a, int db, const char *b)
{
    if (t && !t->in_mpi)
        js_add_call(t, JS_M_POSIX_META_CALLS, JS_M_POSIX_NS, t0);
    if (r == 0 && moves)
        js_file_renamed(da, a, db, b);
    return r;
}
JS_META(off_t, lseek, (int fd, off_t o, int wh), (fd, o, wh))
JS_META(off64_t, lseek64, (int fd, off64_t o, int wh), (fd, o, wh))
JS_META(int, ftruncate, (int fd, off_t l), (fd, l))
JS_META(int, ftruncate64, (int fd, off64_t l), (fd, l))
JS_META(int, truncate, (const char *p, off_t l), (p, l))
JS_META(int, stat, (const char *restrict p, struct stat *restrict s), (p, s))
JS_META(int, lstat, (const char *restrict p, struct stat *restrict s), (p, s))
JS_META(int, fstat, (int fd, struct stat *s), (fd, s))
JS_META(int, fstatat, (int d, const char *restrict p, struct stat *restrict s, int f), (d, p, s, f))
JS_META(int, stat64, (const char *restrict p, struct stat64 *restrict s), (p, s))
JS_META(int, lstat64, (const char *restrict p, struct stat64 *restrict s), (p, s))
JS_META(int, fstat64, (int fd, struct stat64 *s), (fd, s))
JS_META(int, fstatat64, (int d, const char *restrict p, struct stat64 *restrict s, int f), (d, p, s, f))
/* binaries built against glibc < 2.33 call these instead */
JS_META(int, __xstat, (int v, const char *p, struct stat *s), (v, p, s))
JS_META(int, __lxstat, (int v, const char *p, struct stat *s), (v, p, s))
JS_META(int, __fxstat, (int v, int fd, struct stat *s), (v, fd, s))
JS_META(int, __xstat64, (int v, const char *p, struct stat64 *s), (v, p, s))
JS_META(int, __lxstat64, (int v, const char *p, struct stat64 *s), (v, p, s))
JS_META(int, __fxstat64, (int v, int fd, struct stat64 *s), (v, fd, s))
JS_META(int, unlink, (const char *p), (p))
JS_META(int, unlinkat, (int d, const char *p, int f), (d, p, f))

/* renames: counted, and kept in order (files.c) for the ingest to follow a file to its new name */
JS_EXPORT int rename(const char *a, const char *b)
{
    JS_REAL(int, rename, (const char *, const char *));
    struct js_thread *t = js_self();
    uint64_t t0 = js_ticks();
    return after_rename(t, t0, real_rename(a, b), 1, AT_FDCWD, a, AT_FDCWD, b);
}

JS_EXPORT int renameat(int da, const char *a, int db, const char *b)
{
    JS_REAL(int, renameat, (int, const char *, int, const char *));
    struct js_thread *t = js_self();
    uint64_t t0 = js_ticks();
    return after_rename(t, t0, real_renameat(da, a, db, b), 1, da, a, db, b);
}

JS_EXPORT int renameat2(int da, const char *a, int db, const char *b, unsigned flags)
{
    JS_REAL(int, renameat2, (int, const char *, int, const char *, unsigned));
    struct js_thread *t = js_self();
    uint64_t t0 = js_ticks();
    /* an exchange moves no file to a new name */
    return after_rename(t, t0, real_renameat2(da, a, db, b, flags), !(flags & RENAME_EXCHANGE), da, a, db, b);
}
JS_META(int, mkdir, (const char *p, mode_t m), (p, m))

/* --- sync calls: counted apart (sync_calls, sync_ns), never as metadata: 96,000 fsyncs are a
 * storm for the disk, not for a metadata server (issue 36); their time is I/O time --- */
void js_sync_count(uint64_t ticks)
{
    __atomic_fetch_add(&js_g->sync_calls, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&js_g->sync_ticks, ticks, __ATOMIC_RELAXED);
}

#define JS_SYNC(ret, name, params, args) \
    JS_EXPORT ret name params \
    { \
        JS_REAL(ret, name, params); \
        struct js_thread *t = js_self(); \
        if (!t || t->in_mpi) \
            return real_##name args; \
        uint64_t t0 = js_ticks(); \
        ret r = real_##name args; \
        uint64_t dt = js_ticks() - t0; \
        js_add(t, JS_M_POSIX_NS, dt); \
        js_sync_count(dt); \
        return r; \
    }
JS_SYNC(int, fsync, (int fd), (fd))
JS_SYNC(int, fdatasync, (int fd), (fd))
JS_SYNC(int, syncfs, (int fd), (fd))
JS_SYNC(int, sync_file_range, (int fd, off64_t o, off64_t n, unsigned int fl), (fd, o, n, fl))
/* msync writes the mapping's dirty pages back (with MS_SYNC it waits for them) */
JS_SYNC(int, msync, (void *addr, size_t len, int flags), (addr, len, flags))

JS_EXPORT void sync(void)
{
    JS_REAL(void, sync, (void));
    struct js_thread *t = js_self();
    if (!t || t->in_mpi) {
        real_sync();
        return;
    }
    uint64_t t0 = js_ticks();
    real_sync();
    uint64_t dt = js_ticks() - t0;
    js_add(t, JS_M_POSIX_NS, dt);
    js_sync_count(dt);
}
JS_META(int, mkdirat, (int d, const char *p, mode_t m), (d, p, m))

/* --- the working directory, cached for relative paths --- */
JS_EXPORT int chdir(const char *p)
{
    JS_REAL(int, chdir, (const char *));
    int r = real_chdir(p);
    js_cwd_changed();
    return r;
}

JS_EXPORT int fchdir(int fd)
{
    JS_REAL(int, fchdir, (int));
    int r = real_fchdir(fd);
    js_cwd_changed();
    return r;
}

/* --- glibc's other names of the same functions (tests/unit/profiler-exports.sh checks them
 * against the libc that is loaded): a program, or a library built against an older glibc, may
 * call these names; each is the wrapper above under a second name. */
#define JS_ALIAS(name, target) extern __typeof(target) name JS_EXPORT __attribute__((alias(#target), copy(target)));
ssize_t __read(int, void *, size_t);
ssize_t __write(int, const void *, size_t);
int __close(int);
int __dup2(int, int);
int __fcntl(int, int, ...);
off_t __lseek(int, off_t, int);
int __open(const char *, int, ...);
int __open64(const char *, int, ...);
ssize_t __pread64(int, void *, size_t, off64_t);
ssize_t __pwrite64(int, const void *, size_t, off64_t);
JS_ALIAS(__read, read)
JS_ALIAS(__write, write)
JS_ALIAS(__close, close)
JS_ALIAS(__dup2, dup2)
JS_ALIAS(__fcntl, fcntl)
JS_ALIAS(__lseek, lseek)
JS_ALIAS(__open, open)
JS_ALIAS(__open64, open64)
JS_ALIAS(__pread64, pread64)
JS_ALIAS(__pwrite64, pwrite64)
JS_ALIAS(truncate64, truncate)

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A listed file's identity, taken once at its first open: device, inode and, where the file
 * system reports it, the inode's birth time. Device and inode alone are no identity: a file
 * system gives a freed inode to the next file it creates (slurmd's slurm_script on the inode of
 * an earlier job's deleted output). The birth time tells the two apart, so that a hard link or
 * a bind mount (another name of the same inode) is one file for lineage while a reused inode is
 * not (docs/dependencies.md, "Hard links").
 *
 * One statx system call, made by the profiler itself (never a wrapper, never libc's errno),
 * in place of the fstat it made before: no cost added to the open. A kernel without statx
 * (before 4.11, or a seccomp filter that refuses it) gets the fstat: device and inode, no
 * birth time.
 */
#include "config.h"

#include "js.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

void js_file_identity(struct js_file *f, int fd)
{
    int e = errno; /* the program's errno, whatever the calls below do */
#if defined(SYS_statx) && defined(STATX_BTIME)
    struct statx sx;
    /* AT_STATX_DONT_SYNC: what the client has (a network file system just opened it); no
     * extra round trip to the server */
    long r = js_syscall6(SYS_statx, fd, (long)"", AT_EMPTY_PATH | AT_STATX_DONT_SYNC, STATX_INO | STATX_BTIME,
                         (long)&sx, 0);
    if (r == 0 && (sx.stx_mask & STATX_INO)) {
        f->dev = (uint64_t)makedev(sx.stx_dev_major, sx.stx_dev_minor); /* as st_dev */
        f->ino = (uint64_t)sx.stx_ino;
        f->btime = (sx.stx_mask & STATX_BTIME) && sx.stx_btime.tv_sec > 0
                       ? (uint64_t)sx.stx_btime.tv_sec * 1000000000u + sx.stx_btime.tv_nsec
                       : 0;
        errno = e;
        return;
    }
#endif
    struct stat st;
    if (js_sys_fstat(fd, &st) == 0) {
        f->dev = (uint64_t)st.st_dev;
        f->ino = (uint64_t)st.st_ino;
    }
    errno = e;
}

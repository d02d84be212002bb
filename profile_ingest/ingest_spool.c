/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include "ingest_spool.h"
#include "log.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int pi_read_file(int dirfd, const char *name, uid_t want_uid, const char *owner, long long max, char **buf,
                 size_t *len, char *reason, size_t size)
{
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        if (errno == ENOENT)
            return PI_READ_GONE;
        if (errno == ELOOP) {
            snprintf(reason, size, "is a symbolic link (never followed)");
            return PI_READ_REFUSED;
        }
        snprintf(reason, size, "cannot be opened: %s", strerror(errno));
        return PI_READ_REFUSED;
    }
    struct stat sb;
    if (fstat(fd, &sb) < 0) {
        snprintf(reason, size, "cannot be examined: %s", strerror(errno));
        close(fd);
        return PI_READ_REFUSED;
    }
    if (!S_ISREG(sb.st_mode)) {
        snprintf(reason, size, "is not a regular file");
        close(fd);
        return PI_READ_REFUSED;
    }
    if (sb.st_uid != want_uid) {
        snprintf(reason, size, "is owned by uid %u, not by %s (uid %u)", (unsigned)sb.st_uid, owner, (unsigned)want_uid);
        close(fd);
        return PI_READ_REFUSED;
    }
    if (sb.st_size > max) {
        snprintf(reason, size, "is larger than %lld bytes (%lld bytes)", max, (long long)sb.st_size);
        close(fd);
        return PI_READ_REFUSED;
    }
    size_t cap = (size_t)sb.st_size + 1, n = 0;
    char *p = malloc(cap + 1);
    if (!p)
        abort();
    for (;;) {
        if (n == cap) {
            /* grew since fstat */
            if ((long long)n > max) {
                snprintf(reason, size, "is larger than %lld bytes (it grew while read)", max);
                free(p);
                close(fd);
                return PI_READ_REFUSED;
            }
            cap *= 2;
            char *q = realloc(p, cap + 1);
            if (!q)
                abort();
            p = q;
        }
        ssize_t r = read(fd, p + n, cap - n);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            snprintf(reason, size, "cannot be read: %s", strerror(errno));
            free(p);
            close(fd);
            return PI_READ_REFUSED;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    if ((long long)n > max) {
        snprintf(reason, size, "is larger than %lld bytes (it grew while read)", max);
        free(p);
        return PI_READ_REFUSED;
    }
    p[n] = '\0';
    *buf = p;
    *len = n;
    return PI_READ_OK;
}

int pi_open_dir(int dirfd, const char *name)
{
    return openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

int pi_mkdirs(const char *path)
{
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, 0700) < 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(tmp, 0700) < 0 && errno != EEXIST)
        return -1;
    return 0;
}

void pi_quarantine_path(char *out, size_t size, const char *qdir, long long job, const char *name)
{
    snprintf(out, size, "%s/job.%lld/%s", qdir, job, name);
}

static int copy_then_unlink(int dirfd, const char *name, const char *to)
{
    int in = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    int ok = in >= 0 && out >= 0;
    char b[65536];
    ssize_t r;
    long long total = 0;
    while (ok && (r = read(in, b, sizeof b)) > 0 && total < (256LL << 20)) {
        if (write(out, b, (size_t)r) != r)
            ok = 0;
        total += r;
    }
    if (in >= 0)
        close(in);
    if (out >= 0 && close(out) < 0)
        ok = 0;
    if (ok || in < 0)
        unlinkat(dirfd, name, 0);
    return ok ? 0 : -1;
}

int pi_quarantine_move(int dirfd, const char *name, const char *qdir, long long job, const char *reason)
{
    char dir[PATH_MAX], to[PATH_MAX], rpath[PATH_MAX + 16];
    snprintf(dir, sizeof dir, "%s/job.%lld", qdir, job);
    pi_quarantine_path(to, sizeof to, qdir, job, name);
    snprintf(rpath, sizeof rpath, "%s.reason", to);
    /* the directory is made when it is missing, not checked for each of 10^5 files */
    FILE *f = fopen(rpath, "we");
    if (!f && errno == ENOENT) {
        if (pi_mkdirs(dir) < 0) {
            pi_error("quarantine: cannot make %s: %s", dir, strerror(errno));
            return -1;
        }
        f = fopen(rpath, "we");
    }
    if (f) {
        fprintf(f, "%s\n", reason);
        fclose(f);
    }
    if (renameat(dirfd, name, AT_FDCWD, to) == 0)
        return 0;
    if (errno == ENOENT)
        return 0;
    if (errno == EXDEV && copy_then_unlink(dirfd, name, to) == 0)
        return 0;
    pi_error("quarantine: cannot move %s to %s: %s", name, to, strerror(errno));
    return -1;
}

long pi_quarantine_expire(const char *qdir, int days)
{
    long gone = 0;
    if (days <= 0)
        return 0;
    time_t before = time(NULL) - (time_t)days * 86400;
    int qfd = open(qdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *q = qfd >= 0 ? fdopendir(qfd) : NULL;
    struct dirent *j;
    while (q && (j = readdir(q)) != NULL) {
        if (strncmp(j->d_name, "job.", 4) != 0)
            continue;
        int jfd = openat(qfd, j->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        DIR *d = jfd >= 0 ? fdopendir(jfd) : NULL;
        struct dirent *e;
        struct stat sb;
        while (d && (e = readdir(d)) != NULL)
            if (e->d_name[0] != '.' && fstatat(jfd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode) &&
                sb.st_mtime < before && unlinkat(jfd, e->d_name, 0) == 0)
                gone++;
        if (d)
            closedir(d);
        else if (jfd >= 0)
            close(jfd);
        unlinkat(qfd, j->d_name, AT_REMOVEDIR); /* only when empty */
    }
    if (q)
        closedir(q);
    else if (qfd >= 0)
        close(qfd);
    if (gone)
        pi_info("quarantine: %ld files older than %d days removed from %s", gone, days, qdir);
    return gone;
}

int pi_dispose(int dirfd, const char *name, const char *archive, long long job, const char *sub)
{
    if (archive) {
        char dir[PATH_MAX], to[PATH_MAX + 512];
        snprintf(dir, sizeof dir, "%s/job.%lld%s%s", archive, job, sub ? "/" : "", sub ? sub : "");
        if (pi_mkdirs(dir) == 0) {
            snprintf(to, sizeof to, "%s/%s", dir, name);
            if (renameat(dirfd, name, AT_FDCWD, to) == 0 || errno == ENOENT)
                return 0;
            if (errno == EXDEV && copy_then_unlink(dirfd, name, to) == 0)
                return 0;
        }
        pi_error("archive: cannot move %s to %s: %s", name, dir, strerror(errno));
        return -1;
    }
    if (unlinkat(dirfd, name, 0) < 0 && errno != ENOENT) {
        pi_error("cannot remove %s: %s", name, strerror(errno));
        return -1;
    }
    return 0;
}

/* jobscreen plugin: the relay, root's side of collection (relay.h, docs/spool.md). */
#include "config.h"

#include "relay.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile_format.h"

#define SPOOL_LEDGER_MAGIC "JSSPOOL1"
#define RELAY_LEDGER_MAGIC "JSRELAY1"
#define NAME_MAX_LEN 600

/* The job's share of the spool on the node, taken so far (.spool.<node>). */
struct spool_ledger {
    char magic[8];
    int64_t bytes, files;
};

/* A step's relaying on the node (.relay.<step>.<node>). A bundle is "in flight" from the
 * moment its share is taken until its source is a tombstone: a relay that stopped in between
 * finishes it on its next pass, from here, without taking the share twice or copying twice. */
struct relay_ledger {
    char magic[8];
    int64_t next_seq;
    struct js_relay_refused refused;
    int64_t inflight_seq;      /* 0: none */
    uint64_t inflight_dev, inflight_ino; /* its source, as it was (a tmpfs reuses inode numbers) */
    int64_t inflight_size, inflight_mtime_ns;
};

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (err && errlen && err[0] == '\0') { /* the first problem of a pass */
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Open a ledger (root's, in the root-owned job directory) and lock it; its contents into buf
 * (zeros with the magic when new). Returns the fd, or -1. */
static int ledger_open(int dirfd, const char *name, void *buf, size_t size, const char *magic)
{
    struct stat sb;
    int fd = openat(dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    if (flock(fd, LOCK_EX) != 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_uid != geteuid()) {
        close(fd);
        errno = EPERM;
        return -1;
    }
    if (pread(fd, buf, size, 0) != (ssize_t)size || memcmp(buf, magic, 8) != 0) {
        memset(buf, 0, size);
        memcpy(buf, magic, 8);
    }
    return fd;
}

static int ledger_close(int fd, const void *buf, size_t size)
{
    int rc = pwrite(fd, buf, size, 0) == (ssize_t)size ? 0 : -1;
    close(fd); /* and the lock with it */
    return rc;
}

static void ledger_name(char *out, size_t size, const char *kind, const struct js_relay *r, int with_step)
{
    if (with_step)
        snprintf(out, size, ".%s.%s.%s", kind, r->step, r->node);
    else
        snprintf(out, size, ".%s.%s", kind, r->node);
}

/* Take (or give back, negative) a bundle's bytes from the job's share; -1 when it does not fit. */
static int share_take(const struct js_relay *r, int64_t files, int64_t bytes)
{
    char name[NAME_MAX_LEN];
    struct spool_ledger l;
    ledger_name(name, sizeof name, "spool", r, 0);
    int fd = ledger_open(r->jobfd, name, &l, sizeof l, SPOOL_LEDGER_MAGIC);
    if (fd < 0)
        return -1;
    if (files > 0 && ((r->cap_files > 0 && l.files + files > r->cap_files) ||
                      (r->cap_bytes > 0 && l.bytes + bytes > r->cap_bytes))) {
        close(fd);
        errno = EDQUOT;
        return -1;
    }
    l.files += files;
    l.bytes += bytes;
    return ledger_close(fd, &l, sizeof l);
}

/* "<step>.<node>.b<N>.json": a finished bundle of the collector's */
static int is_bundle(const struct js_relay *r, const char *name)
{
    size_t sl = strlen(r->step), nl = strlen(r->node), l = strlen(name);
    if (l < sl + nl + 8 || strncmp(name, r->step, sl) != 0 || name[sl] != '.' ||
        strncmp(name + sl + 1, r->node, nl) != 0 || name[sl + 1 + nl] != '.' || name[sl + 2 + nl] != 'b')
        return 0;
    const char *d = name + sl + 3 + nl, *e = d;
    while (*e >= '0' && *e <= '9')
        e++;
    return e > d && e - d <= 10 && strcmp(e, ".json") == 0;
}

/* Open a file of the user's in the record area for root to copy: a regular file of the job's
 * user with one link (not a link to somebody else's file), no link followed, no FIFO waited on. */
static int open_source(const struct js_relay *r, const char *name, struct stat *sb)
{
    int fd = openat(r->recfd, name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (fstat(fd, sb) != 0 || !S_ISREG(sb->st_mode) || sb->st_uid != r->uid || sb->st_nlink != 1) {
        close(fd);
        errno = EPERM;
        return -1;
    }
    return fd;
}

/* Copy size bytes of src into a new file of dir (tmp), the user's, fsynced, published as name
 * (replace: over what is there; else never over anything). */
static int copy_into(const struct js_relay *r, int src, off_t size, const char *tmp, const char *name, int replace)
{
    static char buf[1 << 16];
    int out = openat(r->profilesfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (out < 0)
        return -1;
    off_t done = 0;
    int ok = 1;
    while (ok && done < size) {
        size_t want = size - done < (off_t)sizeof buf ? (size_t)(size - done) : sizeof buf;
        ssize_t n = pread(src, buf, want, done);
        ok = n > 0 && write(out, buf, (size_t)n) == n;
        done += n > 0 ? n : 0;
    }
    ok = ok && fchown(out, r->uid, r->gid) == 0 && fsync(out) == 0;
    int e = errno;
    if (close(out) != 0 && ok) {
        ok = 0;
        e = errno;
    }
    if (ok)
        ok = (replace ? renameat(r->profilesfd, tmp, r->profilesfd, name)
                      : linkat(r->profilesfd, tmp, r->profilesfd, name, 0)) == 0;
    if (!ok && e == 0)
        e = errno;
    unlinkat(r->profilesfd, tmp, 0);
    errno = e;
    return ok ? 0 : -1;
}

/* The bundle's source is done with: emptied (its memory given back) and renamed to its
 * tombstone, which tells the collector that the bundle exists (for its markers) until it
 * looks next. */
static void bury(const struct js_relay *r, int fd, const char *name)
{
    char tomb[NAME_MAX_LEN];
    snprintf(tomb, sizeof tomb, ".%s.sent", name);
    if (ftruncate(fd, 0) != 0 || renameat(r->recfd, name, r->recfd, tomb) != 0)
        unlinkat(r->recfd, name, 0);
}

/* The lines of a refused bundle: one per profile, and one that closes the bundle. Read no
 * further than a bundle can be long: a huge (sparse) file must not hold up the step's end. */
static int64_t profiles_in(int fd, off_t size)
{
    static char buf[1 << 16];
    int64_t lines = 0;
    off_t at = 0;
    ssize_t n;
    if (size > (off_t)JS_PROFILE_MAX_BYTES)
        size = (off_t)JS_PROFILE_MAX_BYTES;
    while (at < size && (n = pread(fd, buf, sizeof buf, at)) > 0) {
        for (ssize_t i = 0; i < n; i++)
            lines += buf[i] == '\n';
        at += n;
    }
    return lines > 1 ? lines - 1 : 0;
}

/* One bundle of the step: into the spool, or refused. 1 moved, 0 refused, -1 error. */
static int relay_bundle(struct js_relay *r, struct relay_ledger *l, const char *name, int *matched, char *err,
                        size_t errlen)
{
    struct stat sb;
    char fin[NAME_MAX_LEN], tmp[NAME_MAX_LEN + 8];
    int fd = open_source(r, name, &sb);
    if (fd < 0)
        return errno == ENOENT ? 0 : fail(err, errlen, "%s: %s; left where it is", name, strerror(errno));
    int64_t mtime_ns = (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec;
    int resumed = l->inflight_seq > 0 && l->inflight_dev == (uint64_t)sb.st_dev &&
                  l->inflight_ino == (uint64_t)sb.st_ino && l->inflight_size == sb.st_size &&
                  l->inflight_mtime_ns == mtime_ns;
    if (resumed)
        *matched = 1;
    if (!resumed) {
        if (sb.st_size > (off_t)JS_PROFILE_MAX_BYTES || share_take(r, 1, sb.st_size) != 0) {
            int quota = errno == EDQUOT || sb.st_size > (off_t)JS_PROFILE_MAX_BYTES;
            if (!quota) {
                close(fd);
                return fail(err, errlen, "%s: the share's ledger: %s; left where it is", name, strerror(errno));
            }
            l->refused.processes += profiles_in(fd, sb.st_size);
            l->refused.bundles++;
            l->refused.bytes += sb.st_size;
            bury(r, fd, name);
            close(fd);
            return 0;
        }
        l->inflight_seq = l->next_seq > 0 ? l->next_seq : 1;
        l->next_seq = l->inflight_seq + 1;
        l->inflight_dev = (uint64_t)sb.st_dev;
        l->inflight_ino = (uint64_t)sb.st_ino;
        l->inflight_size = sb.st_size;
        l->inflight_mtime_ns = mtime_ns;
        *matched = 1;
    }
    snprintf(fin, sizeof fin, "%s.%s.b%" PRId64 ".json", r->step, r->node, l->inflight_seq);
    snprintf(tmp, sizeof tmp, ".%s.tmp", fin);
    struct stat have;
    int rc = 1;
    /* resumed and already published: only the burial was left */
    if (!(resumed && fstatat(r->profilesfd, fin, &have, AT_SYMLINK_NOFOLLOW) == 0) &&
        copy_into(r, fd, sb.st_size, tmp, fin, 0) != 0)
        rc = fail(err, errlen, "%s: cannot copy into the spool as %s: %s; tried again later", name, fin, strerror(errno));
    if (rc == 1) {
        bury(r, fd, name);
        l->inflight_seq = 0;
    }
    close(fd);
    return rc;
}

/* The live snapshot, copied when it changed since the last pass. */
static void relay_live(struct js_relay *r, char *err, size_t errlen)
{
    char name[NAME_MAX_LEN], tmp[NAME_MAX_LEN + 8];
    struct stat sb;
    snprintf(name, sizeof name, ".live.%s.%s.json", r->step, r->node);
    int fd = open_source(r, name, &sb);
    if (fd < 0)
        return;
    if (sb.st_dev != r->live_dev || sb.st_ino != r->live_ino || sb.st_size != r->live_size ||
        sb.st_mtim.tv_sec != r->live_mtime.tv_sec || sb.st_mtim.tv_nsec != r->live_mtime.tv_nsec) {
        snprintf(tmp, sizeof tmp, "%s.tmp", name);
        if (sb.st_size > (off_t)JS_PROFILE_MAX_BYTES)
            fail(err, errlen, "%s: larger than %u bytes; not copied", name, JS_PROFILE_MAX_BYTES);
        else if (copy_into(r, fd, sb.st_size, tmp, name, 1) != 0)
            fail(err, errlen, "%s: cannot copy into the spool: %s", name, strerror(errno));
        else {
            r->live_dev = sb.st_dev;
            r->live_ino = sb.st_ino;
            r->live_size = sb.st_size;
            r->live_mtime = sb.st_mtim;
        }
    }
    close(fd);
}

/* The step is over: its snapshot and tombstones go. */
static void relay_final(struct js_relay *r)
{
    char name[NAME_MAX_LEN];
    snprintf(name, sizeof name, ".live.%s.%s.json", r->step, r->node);
    unlinkat(r->profilesfd, name, 0);
    DIR *d = fdopendir(dup(r->recfd));
    struct dirent *e;
    if (d)
        rewinddir(d);
    while (d && (e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] == '.' && l > 5 && strcmp(e->d_name + l - 5, ".sent") == 0) {
            snprintf(name, sizeof name, "%.*s", (int)(l - 6), e->d_name + 1);
            if (is_bundle(r, name))
                unlinkat(r->recfd, e->d_name, 0);
        }
    }
    if (d)
        closedir(d);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int js_relay_pass(struct js_relay *r, int final, char *err, size_t errlen)
{
    char lname[NAME_MAX_LEN];
    struct relay_ledger l;
    if (err && errlen)
        err[0] = '\0';
    ledger_name(lname, sizeof lname, "relay", r, 1);
    int lfd = ledger_open(r->jobfd, lname, &l, sizeof l, RELAY_LEDGER_MAGIC);
    if (lfd < 0)
        return fail(err, errlen, "%s: %s", lname, strerror(errno));
    /* the bundles in the order the collector numbered them (a few per pass: a plain list) */
    size_t n = 0, cap = 0;
    char **names = NULL;
    DIR *d = fdopendir(dup(r->recfd));
    struct dirent *e;
    if (d)
        rewinddir(d);
    while (d && (e = readdir(d)) != NULL) {
        if (!is_bundle(r, e->d_name))
            continue;
        if (n == cap) {
            char **more = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof *names);
            if (more == NULL)
                break;
            names = more;
        }
        if ((names[n] = strdup(e->d_name)) != NULL)
            n++;
    }
    if (d)
        closedir(d);
    else
        fail(err, errlen, "the record area: %s", strerror(errno));
    qsort(names, n, sizeof *names, cmp_str);
    int moved = 0, errors = d == NULL, matched = 0;
    for (size_t i = 0; i < n; i++) {
        int rc = relay_bundle(r, &l, names[i], &matched, err, errlen);
        moved += rc > 0;
        errors += rc < 0;
        free(names[i]);
    }
    free(names);
    /* a bundle in flight whose source is gone was buried before its ledger was written */
    if (l.inflight_seq > 0 && !matched && d != NULL)
        l.inflight_seq = 0;
    if (ledger_close(lfd, &l, sizeof l) != 0)
        errors += fail(err, errlen, "%s: %s", lname, strerror(errno)) < 0;
    relay_live(r, err, errlen);
    if (final)
        relay_final(r);
    return errors ? -1 : moved;
}

void js_relay_refused(const struct js_relay *r, struct js_relay_refused *out)
{
    char lname[NAME_MAX_LEN];
    struct relay_ledger l;
    memset(out, 0, sizeof *out);
    ledger_name(lname, sizeof lname, "relay", r, 1);
    int fd = openat(r->jobfd, lname, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    if (flock(fd, LOCK_SH) == 0 && pread(fd, &l, sizeof l, 0) == (ssize_t)sizeof l &&
        memcmp(l.magic, RELAY_LEDGER_MAGIC, 8) == 0)
        *out = l.refused;
    close(fd);
}

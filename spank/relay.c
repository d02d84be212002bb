/* SPDX-License-Identifier: GPL-2.0-or-later */
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
#define RELAY_LEDGER_MAGIC "JSRELAY2"
#define NAME_MAX_LEN 600

/* The job's share of the spool on the node, taken so far (.spool.<node>). */
struct spool_ledger {
    char magic[8];
    int64_t bytes, files;
};

/* A step's relaying on the node (.relay.<step>.<node>). A bundle is "in flight" from the
 * moment its share is taken until its source is a tombstone: a relay that stopped in between
 * finishes it on its next pass, from here, without taking the share twice or copying twice.
 * The live snapshot's copy in the spool is charged to the share for as long as it is there
 * (live_charged); it is the relay's alone to replace and remove, so no flight is needed. */
struct relay_ledger {
    char magic[8];
    int64_t next_seq;
    struct {
        int64_t processes, bundles, bytes;
    } refused;
    int64_t inflight_seq;      /* 0: none */
    uint64_t inflight_dev, inflight_ino; /* its source, as it was (a tmpfs reuses inode numbers) */
    int64_t inflight_size, inflight_mtime_ns;
    int64_t live_charged;      /* bytes of the live snapshot's copy taken from the share */
    int64_t live_copied_ns;    /* when it was made (CLOCK_MONOTONIC); 0: none yet */
    int64_t live_refused, live_refused_bytes; /* snapshots the share refused */
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

/* What the caller logs where the share bites (the first thing it refuses of the step). */
static void notice(struct js_relay *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void notice(struct js_relay *r, const char *fmt, ...)
{
    va_list ap;
    if (r->notice[0] == '\0') {
        va_start(ap, fmt);
        vsnprintf(r->notice, sizeof r->notice, fmt, ap);
        va_end(ap);
    }
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

/* Take (or give back, negative) files and bytes from the job's share; -1 (EDQUOT) when what is
 * taken does not fit. */
static int share_take(const struct js_relay *r, int64_t files, int64_t bytes)
{
    char name[NAME_MAX_LEN];
    struct spool_ledger l;
    ledger_name(name, sizeof name, "spool", r, 0);
    int fd = ledger_open(r->jobfd, name, &l, sizeof l, SPOOL_LEDGER_MAGIC);
    if (fd < 0)
        return -1;
    if ((files > 0 && r->cap_files > 0 && l.files + files > r->cap_files) ||
        (bytes > 0 && r->cap_bytes > 0 && l.bytes + bytes > r->cap_bytes)) {
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

/* A bundle of version 3 says how many processes it holds near its head, as its writer puts it
 * ({"format":...,"version":3,"processes":N,...}, common/bundle_cols.h): N, or -1 when the head is
 * not such a bundle's. */
static int64_t processes_said(const char *head, size_t n)
{
    static const char v3[] = "\"version\":3,\"processes\":";
    const char *p = memmem(head, n, v3, sizeof v3 - 1);
    if (!p)
        return -1;
    p += sizeof v3 - 1;
    int64_t v = 0;
    for (; p < head + n && *p >= '0' && *p <= '9' && v <= INT32_MAX; p++)
        v = v * 10 + (*p - '0');
    return v > INT32_MAX ? INT32_MAX : v;
}

/* The processes of a refused bundle: as a bundle of version 3 says; in older ones its lines,
 * one per profile and one that closes the bundle. Read no further than a bundle can be long: a
 * huge (sparse) file must not hold up the step's end. */
static int64_t profiles_in(int fd, off_t size)
{
    static char buf[1 << 16];
    int64_t lines = 0;
    off_t at = 0;
    ssize_t n;
    if (size > (off_t)JS_PROFILE_MAX_BYTES)
        size = (off_t)JS_PROFILE_MAX_BYTES;
    if ((n = pread(fd, buf, 256, 0)) > 0 && (lines = processes_said(buf, (size_t)n)) >= 0)
        return lines;
    lines = 0;
    while (at < size && (n = pread(fd, buf, sizeof buf, at)) > 0) {
        for (ssize_t i = 0; i < n; i++)
            lines += buf[i] == '\n';
        at += n;
    }
    return lines > 1 ? lines - 1 : 0;
}

/* a += b for counts of bytes, saturating: a sparse file's size can be near INT64_MAX */
static void add_bytes(int64_t *a, int64_t b)
{
    *a = b > INT64_MAX - *a ? INT64_MAX : *a + b;
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
            int64_t profiles = profiles_in(fd, sb.st_size);
            l->refused.processes += profiles;
            if (l->refused.bundles++ == 0)
                notice(r, "%s (%lld B, %lld profiles): %s; refused (the step record counts the processes left out)",
                       name, (long long)sb.st_size, (long long)profiles,
                       sb.st_size > (off_t)JS_PROFILE_MAX_BYTES ? "larger than a bundle can be"
                                                                : "the job's share of the spool on this node is used up");
            add_bytes(&l->refused.bytes, sb.st_size);
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

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* How long after the previous copy a snapshot of size bytes may be copied (relay.h). */
static int64_t live_interval_ns(const struct js_relay *r, off_t size)
{
    int64_t ns = (int64_t)size * 1000000000 / JS_LIVE_BYTES_PER_SECOND; /* size: at most JS_PROFILE_MAX_BYTES */
    return ns > r->live_min_ns ? ns : r->live_min_ns;
}

/* A snapshot the share (or its size) refuses: counted once, said the first time. */
static void live_refuse(struct js_relay *r, struct relay_ledger *l, const char *name, off_t size)
{
    add_bytes(&l->live_refused_bytes, size);
    if (l->live_refused++ == 0)
        notice(r, "%s (%lld B): %s; not copied (the step record counts the snapshots not copied)",
               name, (long long)size,
               size > (off_t)JS_PROFILE_MAX_BYTES ? "larger than a profile can be"
                                                  : "more than the job's share of the spool on this node has left");
}

/* The live snapshot, copied when it changed since it was last looked at and its interval since
 * the last copy has passed. The copy is charged in full before it is made (for a moment it is
 * on disk beside its predecessor) and the predecessor's bytes are given back once it is
 * replaced: the share holds the bytes of the copy that is there. */
static void relay_live(struct js_relay *r, struct relay_ledger *l, char *err, size_t errlen)
{
    char name[NAME_MAX_LEN], tmp[NAME_MAX_LEN + 8];
    struct stat sb;
    snprintf(name, sizeof name, ".live.%s.%s.json", r->step, r->node);
    int fd = open_source(r, name, &sb);
    if (fd < 0)
        return;
    int64_t now = now_ns();
    int huge = sb.st_size > (off_t)JS_PROFILE_MAX_BYTES;
    if ((sb.st_dev == r->live_dev && sb.st_ino == r->live_ino && sb.st_size == r->live_size &&
         sb.st_mtim.tv_sec == r->live_mtime.tv_sec && sb.st_mtim.tv_nsec == r->live_mtime.tv_nsec) ||
        (!huge && l->live_copied_ns > 0 && now - l->live_copied_ns < live_interval_ns(r, sb.st_size))) {
        close(fd); /* seen already, or too soon: the next pass looks again */
        return;
    }
    r->live_dev = sb.st_dev; /* this one is dealt with, whatever comes of it */
    r->live_ino = sb.st_ino;
    r->live_size = sb.st_size;
    r->live_mtime = sb.st_mtim;
    if (huge || share_take(r, 0, sb.st_size) != 0) {
        if (!huge && errno != EDQUOT) {
            r->live_size = -1; /* the ledger failed, not the share: tried again */
            fail(err, errlen, "%s: the share's ledger: %s; not copied", name, strerror(errno));
        } else {
            live_refuse(r, l, name, sb.st_size);
        }
        close(fd);
        return;
    }
    snprintf(tmp, sizeof tmp, "%s.tmp", name);
    if (copy_into(r, fd, sb.st_size, tmp, name, 1) != 0) {
        int e = errno;
        share_take(r, 0, -(int64_t)sb.st_size);
        r->live_size = -1;
        fail(err, errlen, "%s: cannot copy into the spool: %s", name, strerror(e));
    } else {
        if (l->live_charged > 0)
            share_take(r, 0, -l->live_charged);
        l->live_charged = sb.st_size;
        l->live_copied_ns = now;
    }
    close(fd);
}

/* The step is over: its snapshot's copy goes, and its bytes back to the share (before the last
 * bundles, which then find the room it held). */
static void live_remove(struct js_relay *r, struct relay_ledger *l)
{
    char name[NAME_MAX_LEN];
    snprintf(name, sizeof name, ".live.%s.%s.json", r->step, r->node);
    if (unlinkat(r->profilesfd, name, 0) == 0 || errno == ENOENT) {
        if (l->live_charged > 0 && share_take(r, 0, -l->live_charged) == 0)
            l->live_charged = 0;
    }
}

/* The step is over: its tombstones go. */
static void relay_final(struct js_relay *r)
{
    char name[NAME_MAX_LEN];
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

/* The step's finished bundles in the record area, sorted as the collector numbered them (a few
 * per pass: a plain list); *n of them. NULL with *n 0 when there are none or on error (-1 in
 * *rc when the record area could not be read). */
static char **bundle_names(const struct js_relay *r, size_t *n, int *rc)
{
    size_t cap = 0;
    char **names = NULL;
    *n = 0;
    *rc = 0;
    DIR *d = fdopendir(dup(r->recfd));
    struct dirent *e;
    if (d == NULL) {
        *rc = -1;
        return NULL;
    }
    rewinddir(d);
    while ((e = readdir(d)) != NULL) {
        if (!is_bundle(r, e->d_name))
            continue;
        if (*n == cap) {
            char **more = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof *names);
            if (more == NULL)
                break;
            names = more;
        }
        if ((names[*n] = strdup(e->d_name)) != NULL)
            ++*n;
    }
    closedir(d);
    if (*n > 0)
        qsort(names, *n, sizeof *names, cmp_str);
    return names;
}

int js_relay_pass(struct js_relay *r, int final, char *err, size_t errlen)
{
    char lname[NAME_MAX_LEN];
    struct relay_ledger l;
    if (err && errlen)
        err[0] = '\0';
    r->notice[0] = '\0';
    ledger_name(lname, sizeof lname, "relay", r, 1);
    int lfd = ledger_open(r->jobfd, lname, &l, sizeof l, RELAY_LEDGER_MAGIC);
    if (lfd < 0)
        return fail(err, errlen, "%s: %s", lname, strerror(errno));
    if (final)
        live_remove(r, &l);
    size_t n;
    int listed;
    char **names = bundle_names(r, &n, &listed);
    if (listed < 0)
        fail(err, errlen, "the record area: %s", strerror(errno));
    int moved = 0, errors = listed < 0, matched = 0;
    for (size_t i = 0; i < n; i++) {
        int rc = relay_bundle(r, &l, names[i], &matched, err, errlen);
        moved += rc > 0;
        errors += rc < 0;
        free(names[i]);
    }
    free(names);
    /* a bundle in flight whose source is gone was buried before its ledger was written */
    if (l.inflight_seq > 0 && !matched && listed == 0)
        l.inflight_seq = 0;
    if (!final)
        relay_live(r, &l, err, errlen);
    if (ledger_close(lfd, &l, sizeof l) != 0)
        errors += fail(err, errlen, "%s: %s", lname, strerror(errno)) < 0;
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
        memcmp(l.magic, RELAY_LEDGER_MAGIC, 8) == 0) {
        out->processes = l.refused.processes;
        out->bundles = l.refused.bundles;
        out->bytes = l.refused.bytes;
        out->live_snapshots = l.live_refused;
        out->live_bytes = l.live_refused_bytes;
    }
    close(fd);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jobscreen plugin: the job epilog's removal of a job's directory in the record area (relay.h).
 *
 * The directory is the job user's, and so is everything in it: a user's process may have made
 * a tree of any depth there, and another job of the same user on the node may still change it
 * while this runs. So the walk
 *  - recurses nowhere: the path from the job's directory down is an array of levels, of which
 *    at most JS_REMOVE_OPEN_DIRS (the deepest) hold an open directory; a level further up is
 *    reopened through the ".." of the one below it, and used only when it is still the
 *    directory (device and inode) it was, else the walk starts again from the job's directory;
 *  - follows no link: every name is looked at, opened and removed relative to its directory's
 *    descriptor (fstatat without following, openat with O_NOFOLLOW | O_DIRECTORY, unlinkat);
 *  - enters no other file system and no directory that is not the job user's (it removes such
 *    a directory when it is empty, and says it is left otherwise);
 *  - ends: an entry it cannot remove is remembered (device and inode) and not tried again, so
 *    is the directory that holds it; more than JS_REMOVE_GIVEN_UP of them, or more than
 *    JS_REMOVE_SECONDS, and it stops and says so.
 * Memory: 32 bytes a level of depth, whatever the depth (the user spent far more on each).
 */
#include "config.h"

#include "relay.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define JS_REMOVE_GIVEN_UP 256

struct level {
    DIR *d;            /* NULL while it is not held open */
    dev_t dev;
    ino_t ino;
    int descended;     /* a directory below was entered since its listing began: list it again */
    int failed;        /* something in it is left */
};

struct walk {
    struct level *lv;  /* lv[0]: the job's directory */
    size_t n, cap;
    dev_t dev;         /* the job's directory's file system, and its owner: nothing else entered */
    uid_t uid;
    struct {
        dev_t dev;
        ino_t ino;
    } given_up[JS_REMOVE_GIVEN_UP];
    size_t ngiven;
    int stopped;       /* it gave up the walk (time, or too many left) */
    time_t deadline;
    struct js_removal *out;
};

static int given_up(const struct walk *w, dev_t dev, ino_t ino)
{
    for (size_t i = 0; i < w->ngiven; i++)
        if (w->given_up[i].dev == dev && w->given_up[i].ino == ino)
            return 1;
    return 0;
}

/* An entry of level L is left: said (the first ones), counted once (by its device and inode
 * when it has them), and the level with it. */
static void left(struct walk *w, struct level *L, const char *name, const struct stat *sb, const char *why)
{
    struct js_removal *o = w->out;
    L->failed = 1;
    if (sb) {
        if (given_up(w, sb->st_dev, sb->st_ino))
            return;
        if (w->ngiven == JS_REMOVE_GIVEN_UP) {
            w->stopped = 1;
            return;
        }
        w->given_up[w->ngiven].dev = sb->st_dev;
        w->given_up[w->ngiven++].ino = sb->st_ino;
    }
    o->left++;
    char shown[64]; /* the user's name for it, as a log line can hold it */
    size_t i = 0;
    for (; name[i] && i < sizeof shown - 1; i++)
        shown[i] = name[i] >= 0x20 && name[i] < 0x7f ? name[i] : '?';
    shown[i] = '\0';
    size_t have = strlen(o->why);
    if (have + 40 < sizeof o->why)
        snprintf(o->why + have, sizeof o->why - have, "%s%s (%zu deep): %s", have ? "; " : "", shown, w->n, why);
}

/* Level L's directory name, a directory the walk may enter: held open as the next level. */
static void descend(struct walk *w, size_t at, const char *name)
{
    struct stat sb;
    int fd = openat(dirfd(w->lv[at].d), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno != ENOENT)
            left(w, &w->lv[at], name, NULL, strerror(errno));
        return;
    }
    int known = fstat(fd, &sb) == 0;
    const char *why = !known ? strerror(errno)
                      : sb.st_dev != w->dev ? "another file system, not entered"
                      : sb.st_uid != w->uid ? "not the job user's, not entered"
                                            : NULL;
    if (why == NULL && w->n == w->cap) {
        size_t cap = w->cap * 2;
        struct level *more = realloc(w->lv, cap * sizeof *more);
        if (more == NULL)
            why = "out of memory";
        else {
            w->lv = more;
            w->cap = cap;
        }
    }
    DIR *d = why ? NULL : fdopendir(fd);
    if (d == NULL) {
        left(w, &w->lv[at], name, known ? &sb : NULL, why ? why : strerror(errno));
        close(fd);
        return;
    }
    w->lv[at].descended = 1;
    w->lv[w->n++] = (struct level){.d = d, .dev = sb.st_dev, .ino = sb.st_ino};
    if (w->n > JS_REMOVE_OPEN_DIRS + 1) { /* the job's directory (level 0) stays open */
        struct level *far = &w->lv[w->n - 1 - JS_REMOVE_OPEN_DIRS];
        closedir(far->d);
        far->d = NULL;
    }
}

/* One entry of the deepest level: removed, or entered when it is a directory with something in it. */
static void entry(struct walk *w, const char *name)
{
    size_t at = w->n - 1;
    struct level *L = &w->lv[at];
    int fd = dirfd(L->d);
    struct stat sb;
    if (fstatat(fd, name, &sb, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno != ENOENT)
            left(w, L, name, NULL, strerror(errno));
        return;
    }
    if (given_up(w, sb.st_dev, sb.st_ino)) {
        L->failed = 1;
        return;
    }
    if (!S_ISDIR(sb.st_mode)) {
        if (unlinkat(fd, name, 0) == 0) {
            size_t l = strlen(name);
            w->out->files++;
            w->out->bytes += sb.st_size;
            w->out->records += l > 4 && strcmp(name + l - 4, ".rec") == 0 && name[0] != '.';
        } else if (errno != ENOENT) {
            left(w, L, name, &sb, strerror(errno));
        }
        return;
    }
    if (unlinkat(fd, name, AT_REMOVEDIR) == 0)
        w->out->dirs++;
    else if (errno == ENOTEMPTY || errno == EEXIST)
        descend(w, at, name);
    else if (errno != ENOENT)
        left(w, L, name, &sb, strerror(errno));
}

/* The deepest level is done: back to the one above, reopened when it is no longer held. */
static void ascend(struct walk *w)
{
    struct level *L = &w->lv[--w->n];
    if (L->failed && !given_up(w, L->dev, L->ino)) {
        if (w->ngiven < JS_REMOVE_GIVEN_UP) {
            w->given_up[w->ngiven].dev = L->dev;
            w->given_up[w->ngiven++].ino = L->ino;
        } else {
            w->stopped = 1;
        }
    }
    struct level *P = w->n > 0 ? &w->lv[w->n - 1] : NULL;
    if (P && P->d == NULL) {
        struct stat sb;
        int fd = openat(dirfd(L->d), "..", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0 && fstat(fd, &sb) == 0 && sb.st_dev == P->dev && sb.st_ino == P->ino &&
            (P->d = fdopendir(fd)) != NULL) {
            P->descended = 0; /* listed from its start */
        } else {
            if (fd >= 0)
                close(fd);
            for (size_t i = 1; i < w->n; i++) /* moved meanwhile: again from the top */
                if (w->lv[i].d)
                    closedir(w->lv[i].d);
            w->n = 1;
            P = &w->lv[0];
            rewinddir(P->d);
            P->descended = 0;
        }
    }
    if (P && L->failed)
        P->failed = 1;
    closedir(L->d);
}

static void walk(struct walk *w)
{
    while (w->n > 0 && !w->stopped) {
        struct level *L = &w->lv[w->n - 1];
        errno = 0;
        struct dirent *e = readdir(L->d);
        if (e == NULL) {
            int e_rd = errno;
            if (e_rd != 0)
                left(w, L, ".", NULL, strerror(e_rd));
            if (L->descended && e_rd == 0) { /* what was entered is empty now: list again to remove it */
                L->descended = 0;
                rewinddir(L->d);
            } else if (w->n > 1) {
                ascend(w);
            } else {
                break;
            }
            continue;
        }
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (time(NULL) > w->deadline) {
            w->stopped = 1;
            break;
        }
        entry(w, e->d_name);
    }
    if (w->stopped) {
        char why[64];
        snprintf(why, sizeof why, "gave up after %s",
                 w->ngiven >= JS_REMOVE_GIVEN_UP ? "too many entries left" : "too long");
        w->out->left++;
        size_t have = strlen(w->out->why);
        snprintf(w->out->why + have, sizeof w->out->why - have, "%s%s", have ? "; " : "", why);
    }
    while (w->n > 0) { /* the job's directory with them */
        struct level *L = &w->lv[--w->n];
        if (L->d)
            closedir(L->d);
    }
}

int js_relay_remove_job(const char *record_dir, uint32_t job_id, struct js_removal *out)
{
    char name[64];
    memset(out, 0, sizeof *out);
    int rfd = open(record_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (rfd < 0) {
        if (errno == ENOENT)
            return 0;
        snprintf(out->why, sizeof out->why, "%s: %s", record_dir, strerror(errno));
        out->left = 1;
        return -1;
    }
    snprintf(name, sizeof name, "job.%" PRIu32, job_id);
    int jfd = openat(rfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat sb;
    struct walk w = {.cap = 64, .out = out, .deadline = time(NULL) + JS_REMOVE_SECONDS};
    if (jfd >= 0 && fstat(jfd, &sb) == 0 && (w.lv = calloc(w.cap, sizeof *w.lv)) != NULL &&
        (w.lv[0].d = fdopendir(jfd)) != NULL) {
        out->found = 1;
        w.n = 1;
        w.dev = sb.st_dev;
        w.uid = sb.st_uid;
        walk(&w);
        if (unlinkat(rfd, name, AT_REMOVEDIR) != 0 && errno != ENOENT) {
            if (out->left == 0) {
                out->left = 1;
                snprintf(out->why, sizeof out->why, "%s: %s", name, strerror(errno));
            }
        }
    } else if (jfd >= 0) {
        out->found = 1;
        out->left = 1;
        snprintf(out->why, sizeof out->why, "%s: %s", name, strerror(errno));
        close(jfd);
    } else if (errno != ENOENT) {
        out->found = 1; /* not a directory (or a link): not ours either way */
        if (unlinkat(rfd, name, 0) != 0) {
            out->left = 1;
            snprintf(out->why, sizeof out->why, "%s: %s", name, strerror(errno));
        }
    }
    free(w.lv);
    close(rfd);
    return out->left > 0 ? -1 : 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* joblog: the job's directory in the spool and atomic record files (docs/spool.md).
 * Everything goes through directory file descriptors, O_NOFOLLOW and fchown/fchmod on open
 * descriptors, so that no symbolic link or renamed directory can redirect a root write. */
#include "config.h"

#include "joblog.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record_format.h"

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    int saved = errno;
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen)
        vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    errno = saved;
    return -1;
}

/* Open (creating with mode when missing) the directory name in dirfd; it must end up a real
 * directory owned by owner. */
static int open_subdir(int dirfd, const char *name, mode_t mode, uid_t owner, int *created)
{
    *created = 0;
    if (mkdirat(dirfd, name, mode) == 0)
        *created = 1;
    else if (errno != EEXIST)
        return -1;
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        struct stat lst;
        int e = errno;
        /* say "symbolic link" rather than the ENOTDIR that O_DIRECTORY gives for one */
        errno = (fstatat(dirfd, name, &lst, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(lst.st_mode)) ? ELOOP : e;
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) < 0) {
        close(fd);
        return -1;
    }
    if (!S_ISDIR(st.st_mode) || st.st_uid != owner) {
        close(fd);
        errno = EPERM;
        return -1;
    }
    return fd;
}

/* Open the directory that plugstack.conf's key names: an absolute path to a directory of ours
 * that group and others cannot write. follow: the path's last component may be a link. */
static int open_top_dir(const char *key, const char *path, int follow, char *err, size_t errlen)
{
    struct stat st;
    if (path == NULL || path[0] != '/')
        return fail(err, errlen, "%s=%s: not an absolute path", key, path ? path : "(unset)");
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
    if (fd < 0)
        return fail(err, errlen, "%s=%s: %s", key, path, strerror(errno));
    if (fstat(fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
        close(fd);
        return fail(err, errlen, "%s=%s: must be a directory owned by uid %u and not writable by group or others", key,
                    path, (unsigned)geteuid());
    }
    return fd;
}

int joblog_spool_job_dir(const char *spool, uint32_t job_id, int make_profiles, char *err, size_t errlen)
{
    uid_t me = geteuid();
    char name[64];
    struct stat st;
    int created;

    int sfd = open_top_dir("spool", spool, 1, err, errlen);
    if (sfd < 0)
        return -1;
    js_job_dir_name(name, sizeof name, job_id);
    int jfd = open_subdir(sfd, name, 0700, me, &created);
    if (jfd < 0) {
        int e = errno;
        close(sfd);
        errno = e;
        return fail(err, errlen, "%s/%s: %s", spool, name,
                    e == EPERM   ? "exists but is not a directory owned by root"
                    : e == ELOOP ? "is a symbolic link; not followed" : strerror(e));
    }
    close(sfd);
    /* root's alone (records hold users' command lines and directories: nobody else reads them;
     * the ingest has CAP_DAC_OVERRIDE); also one an earlier version made 0711 */
    if (fstat(jfd, &st) < 0 || ((st.st_mode & 07777) != 0700 && fchmod(jfd, 0700) < 0)) {
        int e = errno;
        close(jfd);
        return fail(err, errlen, "%s/%s: chmod: %s", spool, name, strerror(e));
    }
    /* profiles/: what root copies from the record area (docs/spool.md); root's alone, so that
     * nothing the user's processes do can fill the spool. One an earlier version made the
     * user's is taken back. */
    if (make_profiles) {
        if (mkdirat(jfd, JS_PROFILES_DIR_NAME, 0700) < 0 && errno != EEXIST) {
            int e = errno;
            close(jfd);
            return fail(err, errlen, "%s/%s/" JS_PROFILES_DIR_NAME ": %s", spool, name, strerror(e));
        }
        int pfd = openat(jfd, JS_PROFILES_DIR_NAME, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (pfd < 0 || fstat(pfd, &st) < 0 || !S_ISDIR(st.st_mode)) {
            int e = pfd < 0 ? errno : EPERM;
            if (pfd >= 0)
                close(pfd);
            if ((e == ENOTDIR || e == ELOOP) && fstatat(jfd, JS_PROFILES_DIR_NAME, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                S_ISLNK(st.st_mode))
                e = ELOOP;
            close(jfd);
            return fail(err, errlen, "%s/%s/" JS_PROFILES_DIR_NAME ": %s", spool, name,
                        e == EPERM   ? "not a directory"
                        : e == ELOOP ? "is a symbolic link; not followed" : strerror(e));
        }
        if (((st.st_uid != me || st.st_gid != getegid()) && fchown(pfd, me, getegid()) < 0) ||
            ((st.st_mode & 07777) != 0700 && fchmod(pfd, 0700) < 0)) {
            int e = errno;
            close(pfd);
            close(jfd);
            return fail(err, errlen, "%s/%s/" JS_PROFILES_DIR_NAME ": %s", spool, name, strerror(e));
        }
        close(pfd);
    }
    return jfd;
}

/* Open path, a directory, making its missing components (0711): every component must be ours
 * and not writable by group or others, or a sticky directory of ours (/tmp, /dev/shm), so that
 * no user can have made or can swap any part of it; no link is followed. */
static int open_root_path(const char *key, const char *path, char *err, size_t errlen)
{
    char comp[PATH_MAX];
    struct stat st;
    if (path == NULL || path[0] != '/')
        return fail(err, errlen, "%s=%s: not an absolute path", key, path ? path : "(unset)");
    int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    const char *p = path;
    while (fd >= 0) {
        p += strspn(p, "/");
        size_t n = strcspn(p, "/");
        if (n == 0)
            break;
        if (n >= sizeof comp) {
            close(fd);
            return fail(err, errlen, "%s=%s: a component is too long", key, path);
        }
        memcpy(comp, p, n);
        comp[n] = '\0';
        p += n;
        int made = mkdirat(fd, comp, 0711) == 0;
        int next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        close(fd);
        fd = next;
        if (fd >= 0 && made && fchmod(fd, 0711) != 0) /* whatever the umask */
            fd = (close(fd), -1);
        if (fd < 0)
            return fail(err, errlen, "%s=%s: %s: %s", key, path, comp, strerror(errno));
        int last = p[strspn(p, "/")] == '\0';
        if (fstat(fd, &st) < 0 || st.st_uid != geteuid() ||
            ((st.st_mode & (S_IWGRP | S_IWOTH)) && (last || !(st.st_mode & S_ISVTX)))) {
            close(fd);
            return fail(err, errlen, "%s=%s: %s must be a directory owned by uid %u and not writable by group or others%s",
                        key, path, comp, (unsigned)geteuid(), last ? "" : " (or sticky)");
        }
    }
    if (fd < 0)
        return fail(err, errlen, "%s=%s: %s", key, path, strerror(errno));
    return fd;
}

int joblog_record_job_dir(const char *record_dir, uint32_t job_id, uid_t uid, gid_t gid, char *err, size_t errlen)
{
    uid_t me = geteuid();
    char name[64];
    struct stat st;
    int created;

    int rfd = open_root_path("record_dir", record_dir, err, errlen);
    if (rfd < 0)
        return -1;
    js_job_dir_name(name, sizeof name, job_id);
    /* only root makes entries here: one that exists was made for this job's user (a job id
     * is not reused while its directory stands) */
    int jfd = open_subdir(rfd, name, 0700, me, &created);
    if (jfd < 0 && errno == EPERM)
        jfd = open_subdir(rfd, name, 0700, uid, &created);
    close(rfd);
    if (jfd < 0)
        return fail(err, errlen, "%s/%s: %s", record_dir, name,
                    errno == EPERM   ? "exists but is not a directory of root or the job's user"
                    : errno == ELOOP ? "is a symbolic link; not followed" : strerror(errno));
    if (fstat(jfd, &st) < 0 || ((st.st_uid != uid || st.st_gid != gid) && fchown(jfd, uid, gid) < 0) ||
        ((st.st_mode & 07777) != 0700 && fchmod(jfd, 0700) < 0)) {
        int e = errno;
        close(jfd);
        return fail(err, errlen, "%s/%s: %s", record_dir, name, strerror(e));
    }
    return jfd;
}

int joblog_write_record(int dirfd, const char *name, json_t *record, char *err, size_t errlen)
{
    char tmp[512];
    /* unique per writer: two steps ending at once on one node may both write job.json */
    int n = snprintf(tmp, sizeof tmp, ".%s.%ld.tmp", name, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof tmp || strchr(name, '/') || name[0] == '.' || name[0] == '\0')
        return fail(err, errlen, "%s: bad record name", name);
    char *text = json_dumps(record, JSON_COMPACT | JSON_SORT_KEYS);
    if (text == NULL)
        return fail(err, errlen, "%s: cannot format the record (out of memory)", name);
    size_t len = strlen(text);
    int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 && errno == EEXIST) {
        /* left by a writer that died under the same pid: ours to replace */
        unlinkat(dirfd, tmp, 0);
        fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    }
    if (fd < 0) {
        int e = errno;
        free(text);
        return fail(err, errlen, "%s: %s", tmp, strerror(e));
    }
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : EIO;
            free(text);
            close(fd);
            unlinkat(dirfd, tmp, 0);
            return fail(err, errlen, "%s: write: %s", tmp, strerror(e));
        }
        off += (size_t)w;
    }
    free(text);
    if (write(fd, "\n", 1) != 1 || fchmod(fd, 0600) < 0 || close(fd) < 0) {
        int e = errno;
        unlinkat(dirfd, tmp, 0);
        return fail(err, errlen, "%s: %s", tmp, strerror(e));
    }
    if (renameat(dirfd, tmp, dirfd, name) < 0) {
        int e = errno;
        unlinkat(dirfd, tmp, 0);
        return fail(err, errlen, "rename %s to %s: %s", tmp, name, strerror(e));
    }
    return 0;
}

int joblog_job_merge_previous(int dirfd, struct joblog_job *job, char *err, size_t errlen)
{
    int fd = openat(dirfd, JS_JOB_RECORD_NAME, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return errno == ENOENT ? 0 : fail(err, errlen, JS_JOB_RECORD_NAME ": %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
        (st.st_mode & (S_IWGRP | S_IWOTH)) || st.st_size > JS_RECORD_MAX_FILE_BYTES) {
        close(fd);
        return fail(err, errlen, JS_JOB_RECORD_NAME ": not a regular file of ours of bounded size; not read");
    }
    json_error_t jerr;
    json_t *old = json_loadfd(fd, JSON_REJECT_DUPLICATES, &jerr);
    close(fd);
    if (old == NULL)
        return fail(err, errlen, JS_JOB_RECORD_NAME ": %s (line %d)", jerr.text, jerr.line);
    const char *format = json_string_value(json_object_get(old, "format"));
    json_t *version = json_object_get(old, "version");
    if (format == NULL || strcmp(format, JS_JOB_RECORD_FORMAT) != 0 || !json_is_integer(version) ||
        json_integer_value(version) != JS_RECORD_VERSION) {
        json_decref(old);
        return fail(err, errlen, JS_JOB_RECORD_NAME ": not a job record of version %d", JS_RECORD_VERSION);
    }
    /* what js_job_record_kept (record_format.h) names, as this program's fields: strings, then
     * integers */
    struct { const char *key; char **field; } keep[] = {
        { "dependency", &job->dependency },
        { "workflow", &job->workflow },
        { "batch_script", &job->batch_script },
        { "work_dir", &job->work_dir },
        { "submitter", &job->submitter },
        { "account", &job->account },
        { "qos", &job->qos },
        { "node_list", &job->node_list },
    };
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) {
        const char *v = json_string_value(json_object_get(old, keep[i].key));
        if (*keep[i].field == NULL && v != NULL)
            joblog_set_string(keep[i].field, v, &job->truncated);
    }
    if (json_is_true(json_object_get(old, "batch")))
        job->batch = 1;
    struct { const char *key; int64_t *field; } nums[] = {
        { "submit_ns", &job->submit_ns }, { "eligible_ns", &job->eligible_ns },
        { "nodes", &job->nodes }, { "cpus", &job->cpus },
        { "array_job_id", &job->array_job_id }, { "array_task_id", &job->array_task_id },
    };
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        json_t *v = json_object_get(old, nums[i].key);
        if (*nums[i].field == JOBLOG_NULL && json_is_integer(v))
            *nums[i].field = json_integer_value(v);
    }
    json_decref(old);
    return 1;
}

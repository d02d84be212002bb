/*
 * profile_ingest: loads the jobscreen spool into PostgreSQL (profile_ingest(8), docs/ingest.md).
 *
 * The unit of work is one step record (SPOOL/job.<id>/step.<step>.<node>.json) with that
 * node's profiles of that step: validated, then written in one transaction whose first row
 * is the exactly-once key (js_data.step_nodes); files leave the spool only after COMMIT.
 */
#include "config.h"

#include "conf.h"
#include "db.h"
#include "log.h"
#include "metrics.h"
#include "slice.h"
#include "spool.h"
#include "record_quota.h"
#include "plan.h"
#include "setup.h"
#include "validate.h"

#include <ctype.h>
#include <dirent.h>
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested, reload_requested;

static void on_signal(int sig)
{
    if (sig == SIGHUP)
        reload_requested = 1;
    else
        stop_requested = 1;
}

struct seen_job {
    long long job;
    long long mtime_ns, size;  /* of the job.json last written to the database */
    int final;                 /* what it said: final, and the end time */
    long long end_ns;
};

struct ctx {
    struct pi_conf conf;
    const char *conf_path;
    int conf_required;
    char **overrides; /* key=value from the command line, applied after the file */
    int noverrides;
    struct pi_db db;
    char qdir[PATH_MAX];
    struct seen_job *seen;
    size_t nseen, capseen;
    char **warned;
    size_t nwarned;
    int inotify_fd;
    int spoolfd; /* the spool, during a pass */
    /* step records committed asynchronously, cleaned once a durable commit follows them */
    struct deferred {
        char *jobname, *recname, step[JS_STEP_NAME_MAX], node[256];
        long long job;
        char **q;
    } *deferred;
    size_t ndeferred, capdeferred;
    /* live snapshots stored (or found stored) by this process: "job.<id>/<name>" and the
     * time it was stored under, so that an unchanged one is not even read again */
    struct live_seen {
        char *key;
        long long mtime;
    } *live;
    size_t nlive;
    /* the step records ("job.<id>/step.<step>.<node>.json") the last pass left because its
     * budget was spent, sorted */
    char **aged;
    size_t naged;
};

#define PI_LIVE_SEEN_MAX 4096

#define PI_DEFER_MAX 64

struct scan_result {
    long steps, profiles, slices, refused, backlog, failed;
    long deferred;  /* step records left for the next pass by the budgets (also in backlog) */
    int retry;
};

/* A step-node's refused files are logged one by one up to this many, then summed up in one
 * line: their reasons are in the quarantine and js.quarantine (10^5 junk files made 10^5
 * lines) */
#define PI_REFUSED_LOG_MAX 20

/* Step records left over by a pass whose budget was spent go first in the next pass; at most
 * this many are remembered (the others compete as new ones) */
#define PI_AGED_MAX 65536

static int warn_once(struct ctx *c, const char *key)
{
    for (size_t i = 0; i < c->nwarned; i++)
        if (!strcmp(c->warned[i], key))
            return 0;
    char **w = realloc(c->warned, (c->nwarned + 1) * sizeof *w);
    if (!w)
        abort();
    c->warned = w;
    c->warned[c->nwarned++] = strdup(key);
    return 1;
}

static void kept(struct ctx *c, const char *file, const char *reason)
{
    char key[PATH_MAX + 600];
    snprintf(key, sizeof key, "%s: %s", file, reason);
    if (warn_once(c, key))
        pi_warn("kept %s: %s", file, reason);
}

/* Read and check a record; returns the JSON, or NULL (kept, logged once). is_step < 0: do not
 * quarantine; *invalid set when the record is broken (not merely of an unknown version). */
static json_t *read_record(struct ctx *c, int dirfd, const char *jobname, const char *name, int is_step,
                           char *reason, size_t rsize, int *invalid, int *gone)
{
    char *buf = NULL, path[PATH_MAX];
    size_t len = 0;
    *invalid = *gone = 0;
    snprintf(path, sizeof path, "%s/%s", jobname, name);
    int r = pi_read_file(dirfd, name, (uid_t)c->conf.record_uid, "the record writer", JS_RECORD_MAX_FILE_BYTES, &buf, &len, reason, rsize);
    if (r == PI_READ_GONE) {
        *gone = 1;
        return NULL;
    }
    if (r == PI_READ_REFUSED) {
        *invalid = 1;
        return NULL;
    }
    json_t *j = pi_json_parse(buf, len, reason, rsize);
    free(buf);
    if (!j) {
        *invalid = 1;
        return NULL;
    }
    int chk = pi_record_check(j, is_step, reason, rsize);
    if (chk != PI_OK) {
        json_decref(j);
        if (chk == PI_UNKNOWN_VERSION)
            kept(c, path, reason);
        else
            *invalid = 1;
        return NULL;
    }
    return j;
}

static void free_list(char **l)
{
    if (!l)
        return;
    for (char **p = l; *p; p++)
        free(*p);
    free(l);
}

static int cmp_pair(const void *a, const void *b) { return strcmp(**(char **const *)a, **(char **const *)b); }

/* After COMMIT (or when the step record was ingested before): quarantine what the database
 * says was refused, dispose of the rest, the step record last. */
static void clean_step(struct ctx *c, int jobfd, long long job, const char *recname, const char *step,
                       const char *node, char **quarantined)
{
    /* the refused files, sorted by name: 10^5 of them are looked up in log time, not linearly */
    size_t nq = 0;
    for (char **q = quarantined; q && *q; q += 2)
        nq++;
    char ***byname = malloc((nq + 1) * sizeof *byname);
    if (!byname)
        abort();
    nq = 0;
    for (char **q = quarantined; q && *q; q += 2)
        byname[nq++] = q;
    qsort(byname, nq, sizeof *byname, cmp_pair);
    long nrefused = 0;
    int pfd = pi_open_dir(jobfd, JS_PROFILES_DIR_NAME);
    if (pfd >= 0) {
        DIR *d = fdopendir(dup(pfd));
        struct dirent *e;
        char want[PATH_MAX];
        while (d && (e = readdir(d))) {
            if (!pi_profile_name_matches(e->d_name, step, node))
                continue;
            snprintf(want, sizeof want, "job.%lld/%s/%s", job, JS_PROFILES_DIR_NAME, e->d_name);
            char *key = want, **keyp = &key;
            char ***hit = nq ? bsearch(&keyp, byname, nq, sizeof *byname, cmp_pair) : NULL;
            const char *reason = hit ? (*hit)[1] : NULL;
            if (reason) {
                if (pi_quarantine_move(pfd, e->d_name, c->qdir, job, reason) == 0 && ++nrefused <= PI_REFUSED_LOG_MAX)
                    pi_warn("refused %s: %s", want, reason);
            } else {
                pi_dispose(pfd, e->d_name, c->conf.archive, job, JS_PROFILES_DIR_NAME);
            }
        }
        if (d)
            closedir(d);
        close(pfd);
    }
    free(byname);
    if (nrefused > PI_REFUSED_LOG_MAX)
        pi_warn("refused %ld more files of job.%lld step %s node %s (each with its reason in %s/job.%lld and js.quarantine)",
                nrefused - PI_REFUSED_LOG_MAX, job, step, node, c->qdir, job);
    pi_dispose(jobfd, recname, c->conf.archive, job, NULL);
}

static void quarantine_record(struct ctx *c, int jobfd, long long job, const char *name, const char *step,
                              const char *node, const char *reason, struct scan_result *res)
{
    char file[PATH_MAX], to[PATH_MAX];
    snprintf(file, sizeof file, "job.%lld/%s", job, name);
    pi_quarantine_path(to, sizeof to, c->qdir, job, name);
    int rc = pi_db_ensure(&c->db, c->conf.migrate);
    if (rc == PI_DB_OK)
        rc = pi_db_quarantine(&c->db, c->conf.cluster, job, step, node, file, to, reason);
    if (rc != PI_DB_OK) {
        res->retry |= rc == PI_DB_RETRY;
        return;
    }
    if (pi_quarantine_move(jobfd, name, c->qdir, job, reason) == 0)
        pi_warn("refused %s: %s", file, reason);
    res->refused++;
}

/* One step record on its way through a pass: prepared (records read and checked, main
 * thread), loaded (profiles read, checked and merged: a worker thread, while the main thread
 * writes the previous step record), committed (database and spool, main thread). */
struct item {
    char *jobname, *recname;
    char step[JS_STEP_NAME_MAX], node[256];
    long long job;
    int jobfd;                 /* borrowed from the pass's list of job directories */
    int ready;                 /* st holds a step record to ingest */
    int bad_profiles_dir;      /* profiles/ exists but is no directory (or a link) */
    int pfd;                   /* profiles/, or -1 */
    const struct pi_conf *conf;
    struct pi_step st;
    long long uid;             /* the job's user (job.json), -1 when not known */
    long long cost;            /* bytes (plan.h) */
};

/* A step record whose job record is gone: when the database has its step-node, it is a copy
 * of something ingested (a sender that sent it again, killed after the receiver stored it and
 * before it removed it, once this job's directory was ingested and removed): cleaned as
 * commit_step cleans what was ingested before, and the job directory goes if that emptied it.
 * 1 when cleaned; 0 when it must wait for its job record. */
static int clean_if_ingested(struct ctx *c, struct item *it, const char *path)
{
    char reason[PI_REASON_MAX], cluster[256];
    int invalid, gone, known = 0;
    char **q = NULL;
    /* the step-node key is the step record's cluster (the job record's, which is gone) */
    json_t *rec = read_record(c, it->jobfd, it->jobname, it->recname, 1, reason, sizeof reason, &invalid, &gone);
    if (!rec)
        return 0;
    const char *cl = json_string_value(json_object_get(rec, "cluster"));
    snprintf(cluster, sizeof cluster, "%s", cl && *cl ? cl : c->conf.cluster);
    int same = json_integer_value(json_object_get(rec, "job_id")) == it->job &&
               !strcmp(json_string_value(json_object_get(rec, "step")), it->step) &&
               !strcmp(json_string_value(json_object_get(rec, "node")), it->node);
    json_decref(rec);
    if (!same || pi_db_ensure(&c->db, c->conf.migrate) != PI_DB_OK ||
        pi_db_step_node_known(&c->db, cluster, it->job, it->step, it->node, &known) != PI_DB_OK || !known)
        return 0;
    int done = pi_db_durable(&c->db) == PI_DB_OK &&
               pi_db_quarantined(&c->db, cluster, it->job, it->step, it->node, &q) == PI_DB_OK;
    if (done) {
        pi_info("%s was ingested before (its job directory went since); cleaning the spool", path);
        clean_step(c, it->jobfd, it->job, it->recname, it->step, it->node, q);
        /* only when empty: a parcel being stored into it keeps it */
        if (unlinkat(it->jobfd, JS_PROFILES_DIR_NAME, AT_REMOVEDIR) == 0 || errno == ENOENT)
            unlinkat(c->spoolfd, it->jobname, AT_REMOVEDIR);
    }
    free_list(q);
    return done;
}

/* The job and step records of an item; 1 when st is ready for its profiles. */
static int prepare_step(struct ctx *c, struct item *it, struct scan_result *res)
{
    char reason[PI_REASON_MAX], path[PATH_MAX];
    int invalid, gone, jobfd = it->jobfd;
    const char *jobname = it->jobname, *recname = it->recname, *step = it->step, *node = it->node;
    long long job = it->job;
    it->ready = 0;
    it->pfd = -1;
    snprintf(path, sizeof path, "%s/%s", jobname, recname);
    json_t *jobrec = read_record(c, jobfd, jobname, JS_JOB_RECORD_NAME, 0, reason, sizeof reason, &invalid, &gone);
    if (!jobrec) {
        char jpath[PATH_MAX];
        snprintf(jpath, sizeof jpath, "%s/%s", jobname, JS_JOB_RECORD_NAME);
        if (invalid)
            kept(c, jpath, reason);
        else if (gone && clean_if_ingested(c, it, path))
            return 0;
        else if (gone)
            kept(c, path, "no job record (job.json) yet");
        res->backlog++;
        return 0;
    }
    json_t *rec = read_record(c, jobfd, jobname, recname, 1, reason, sizeof reason, &invalid, &gone);
    if (!rec) {
        json_decref(jobrec);
        if (invalid)
            quarantine_record(c, jobfd, job, recname, step, node, reason, res);
        else if (!gone)
            res->backlog++;
        return 0;
    }
    /* the step record must agree with its name and with the job record */
    const char *rstep = json_string_value(json_object_get(rec, "step"));
    const char *rnode = json_string_value(json_object_get(rec, "node"));
    long long rjob = json_integer_value(json_object_get(rec, "job_id"));
    if (rjob != job || strcmp(rstep, step) || strcmp(rnode, node)) {
        snprintf(reason, sizeof reason, "step record is of job %lld step %s node %s, its name says job %lld step %s node %s",
                 rjob, rstep, rnode, job, step, node);
        invalid = 1;
    } else if (json_integer_value(json_object_get(jobrec, "job_id")) != job) {
        snprintf(reason, sizeof reason, "job record is of job %lld, not %lld", (long long)json_integer_value(json_object_get(jobrec, "job_id")), job);
        invalid = 1;
    } else if (json_integer_value(json_object_get(rec, "uid")) != json_integer_value(json_object_get(jobrec, "uid"))) {
        snprintf(reason, sizeof reason, "step record's uid %lld differs from the job record's uid %lld",
                 (long long)json_integer_value(json_object_get(rec, "uid")), (long long)json_integer_value(json_object_get(jobrec, "uid")));
        invalid = 1;
    }
    if (invalid) {
        json_decref(jobrec);
        json_decref(rec);
        quarantine_record(c, jobfd, job, recname, step, node, reason, res);
        return 0;
    }
    pi_step_init(&it->st, jobrec, rec, c->conf.cluster);
    it->conf = &c->conf;
    it->ready = 1;
    return 1;
}

/* Read, check and add the profiles of an item's step on its node (not yet merged). */
static void read_profiles(struct item *it)
{
    struct pi_step *st = &it->st;
    char reason[PI_REASON_MAX];
    it->pfd = pi_open_dir(it->jobfd, JS_PROFILES_DIR_NAME);
    it->bad_profiles_dir = it->pfd < 0 && errno != ENOENT;
    if (it->pfd >= 0) {
        DIR *d = fdopendir(dup(it->pfd));
        struct dirent *e;
        int count = 0;
        while (d && (e = readdir(d))) {
            if (!pi_profile_name_matches(e->d_name, it->step, it->node))
                continue;
            char *buf = NULL;
            size_t len = 0;
            if (++count > it->conf->max_profiles) {
                snprintf(reason, sizeof reason, "more than %d profiles for one step on one node", it->conf->max_profiles);
                pi_step_add_bad(st, e->d_name, reason);
                continue;
            }
            /* in a received spool the receiver wrote every file, after checking that root on
             * the node sent it (root's relay only copies the job user's own files) */
            uid_t owner = it->conf->received ? (uid_t)it->conf->record_uid : (uid_t)st->uid;
            int r = pi_read_file(it->pfd, e->d_name, owner, it->conf->received ? "the receiver (record_uid)" : "the job's user",
                                 it->conf->max_profile_bytes, &buf, &len, reason, sizeof reason);
            if (r == PI_READ_GONE)
                continue;
            if (r == PI_READ_REFUSED) {
                pi_step_add_bad(st, e->d_name, reason);
                continue;
            }
            json_t *p = pi_json_parse(buf, len, reason, sizeof reason);
            free(buf);
            if (p && pi_is_bundle(p)) {
                /* a bundle: each profile counts, the good ones go in, the file is kept with the
                 * first bad one's reason */
                if (pi_bundle_add(st, it->conf, p, &count, reason, sizeof reason) != PI_OK)
                    pi_step_add_bad(st, e->d_name, reason);
            } else if (!p || pi_profile_add(st, it->conf, p, reason, sizeof reason) != PI_OK) {
                pi_step_add_bad(st, e->d_name, reason);
            }
            json_decref(p);
        }
        if (d)
            closedir(d);
    }
}

/* The profiles of an item's step on its node: files and memory only (a worker thread). */
static void *load_profiles(void *arg)
{
    struct item *it = arg;
    read_profiles(it);
    pi_step_finish(&it->st);
    return NULL;
}

/* The database transaction of a loaded item, then its place in the spool's cleanup. */
static void commit_step(struct ctx *c, struct item *it, struct scan_result *res)
{
    struct pi_step st = it->st;
    int jobfd = it->jobfd, pfd = it->pfd;
    const char *jobname = it->jobname, *recname = it->recname, *step = it->step, *node = it->node;
    long long job = it->job;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", jobname, recname);
    it->ready = 0;
    it->pfd = -1;
    if (it->bad_profiles_dir)
        kept(c, path, "its profiles/ directory is not a directory (or is a link): profiles ignored");
    int rc = pi_db_ensure(&c->db, c->conf.migrate);
    if (rc != PI_DB_OK) {
        res->retry |= rc == PI_DB_RETRY;
        res->failed += rc == PI_DB_FAIL;
        res->backlog++;
        if (pfd >= 0)
            close(pfd);
        pi_step_free(&st);
        return;
    }
    char **moved = calloc(st.nbad + 1, sizeof *moved);
    for (size_t i = 0; i < st.nbad; i++) {
        char to[PATH_MAX];
        pi_quarantine_path(to, sizeof to, c->qdir, job, st.bad[i].name);
        if (!(moved[i] = strdup(to))) /* not PATH_MAX each: 10^5 refusals made 400 MB of it */
            abort();
    }
    rc = pi_db_ingest_step(&c->db, &c->conf, &st, moved);
    if (rc == PI_DB_OK) {
        pi_info("ingested %s: %zu profiles, %zu slice rows, %zu files%s", path, st.nprocs, st.nslices, st.nfiles,
                st.nbad ? ", some refused: step marked incomplete" : "");
        struct timespec done;
        clock_gettime(CLOCK_REALTIME, &done);
        pi_metrics_step(st.end_ns > 0 ? (double)done.tv_sec + (double)done.tv_nsec / 1e9 - (double)st.end_ns / 1e9 : -1,
                        (long)st.nprocs, (long)st.nslices, (long)st.nbad);
        res->steps++;
        res->profiles += (long)st.nprocs;
        res->slices += (long)st.nslices;
        res->refused += (long)st.nbad;
        char **q = calloc(2 * st.nbad + 1, sizeof *q);
        for (size_t i = 0; i < st.nbad; i++) {
            char f[PATH_MAX];
            snprintf(f, sizeof f, "job.%lld/%s/%s", job, JS_PROFILES_DIR_NAME, st.bad[i].name);
            q[2 * i] = strdup(f);
            q[2 * i + 1] = strdup(st.bad[i].reason);
        }
        /* the commit was asynchronous: the files go after the next durable commit */
        if (c->ndeferred == c->capdeferred) {
            c->capdeferred = c->capdeferred ? 2 * c->capdeferred : PI_DEFER_MAX;
            c->deferred = realloc(c->deferred, c->capdeferred * sizeof *c->deferred);
            if (!c->deferred)
                abort();
        }
        struct deferred *d = &c->deferred[c->ndeferred++];
        d->jobname = strdup(jobname);
        d->recname = strdup(recname);
        snprintf(d->step, sizeof d->step, "%s", step);
        snprintf(d->node, sizeof d->node, "%s", node);
        d->job = job;
        d->q = q;
    } else if (rc == PI_DB_DONE) {
        /* ingested before (a kill between commit and cleanup, another daemon, a rerun): make
         * sure that commit is durable, then treat each file as that ingest did */
        char **q = NULL;
        if (pi_db_durable(&c->db) == PI_DB_OK &&
            pi_db_quarantined(&c->db, st.cluster, job, step, node, &q) == PI_DB_OK) {
            pi_info("%s was ingested before; cleaning the spool", path);
            clean_step(c, jobfd, job, recname, step, node, q);
        }
        free_list(q);
    } else if (rc == PI_DB_BUSY) {
        pi_debug("%s: another profile_ingest is on it", path);
    } else {
        res->retry |= rc == PI_DB_RETRY;
        res->failed += rc == PI_DB_FAIL;
        res->backlog++;
    }
    free_list(moved);
    if (pfd >= 0)
        close(pfd);
    pi_step_free(&st);
}

static struct seen_job *seen_find(struct ctx *c, long long job)
{
    for (size_t i = 0; i < c->nseen; i++)
        if (c->seen[i].job == job)
            return &c->seen[i];
    if (c->nseen == c->capseen) {
        c->capseen = c->capseen ? 2 * c->capseen : 64;
        c->seen = realloc(c->seen, c->capseen * sizeof *c->seen);
        if (!c->seen)
            abort();
    }
    struct seen_job *s = &c->seen[c->nseen++];
    s->job = job;
    s->mtime_ns = s->size = -1;
    s->final = 0;
    s->end_ns = 0;
    return s;
}

/* The plugin's ledgers (.spool.<node>, .relay.<step>.<node>: docs/spool.md) and the room an
 * older plugin kept for a step's end (.reserve.<step>.<node>): no data of the job. */
static void remove_ledgers(int jobfd)
{
    DIR *d = fdopendir(dup(jobfd));
    struct dirent *e;
    if (d)
        rewinddir(d);
    while (d && (e = readdir(d)))
        if (strncmp(e->d_name, ".reserve.", 9) == 0 || strncmp(e->d_name, ".spool.", 7) == 0 ||
            strncmp(e->d_name, ".relay.", 7) == 0)
            unlinkat(jobfd, e->d_name, 0);
    if (d)
        closedir(d);
}

/* Temporary files of an atomic write that never finished (".<name>.<pid>.tmp": a receiver or a
 * plugin killed between create and rename). Nothing of them was published or acknowledged: the
 * writer, or the sender that still holds the data, writes it again. Once the job is over they
 * are debris, removed here so that the directory can go; one younger than grace_s seconds, or
 * whose writer's pid is alive on this host, stays for a later pass. */
static void remove_stale_temps(int dirfd, int grace_s)
{
    DIR *d = fdopendir(dup(dirfd));
    struct dirent *e;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (d)
        rewinddir(d);
    while (d && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (e->d_name[0] != '.' || n < 7 || strcmp(e->d_name + n - 4, ".tmp") != 0)
            continue;
        const char *last = e->d_name + n - 5, *digits; /* the pid's last digit */
        for (digits = last; digits > e->d_name && isdigit((unsigned char)*digits); digits--)
            ;
        if (*digits != '.' || digits == last || digits == e->d_name)
            continue; /* not ".<name>.<pid>.tmp" */
        pid_t pid = (pid_t)atol(digits + 1);
        struct stat sb;
        if (fstatat(dirfd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(sb.st_mode) ||
            sb.st_mtim.tv_sec + grace_s > now.tv_sec || (pid > 0 && (kill(pid, 0) == 0 || errno != ESRCH)))
            continue;
        if (unlinkat(dirfd, e->d_name, 0) == 0)
            pi_info("removed %s: the temporary file of a write that never finished", e->d_name);
    }
    if (d)
        closedir(d);
}

/* Quarantine every file of dirfd/sub (leftovers: hidden ones too), then remove sub; 0 when
 * done, -1 when the database is away (retry) or sub stays. */
static int quarantine_dir(struct ctx *c, int dirfd, const char *jobname, const char *sub, long long job,
                          const char *cluster, const char *why, struct scan_result *res)
{
    int pfd = pi_open_dir(dirfd, sub);
    if (pfd < 0)
        return errno == ENOENT ? 0 : -1;
    DIR *d = fdopendir(dup(pfd));
    struct dirent *e;
    if (d)
        rewinddir(d);
    while (d && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (strncmp(e->d_name, JS_QUOTA_PREFIX, strlen(JS_QUOTA_PREFIX)) == 0 ||
            strncmp(e->d_name, ".pool.", 6) == 0 || strncmp(e->d_name, ".pool-new.", 10) == 0) {
            unlinkat(pfd, e->d_name, 0); /* an older plugin's quota ledger and records made ahead: no data */
            continue;
        }
        char file[PATH_MAX], to[PATH_MAX];
        if (strcmp(sub, jobname) == 0)
            snprintf(file, sizeof file, "%s/%s", jobname, e->d_name);
        else
            snprintf(file, sizeof file, "%s/%s/%s", jobname, sub, e->d_name);
        pi_quarantine_path(to, sizeof to, c->qdir, job, e->d_name);
        if (pi_db_quarantine(&c->db, cluster, job, "", "", file, to, why) != PI_DB_OK) {
            res->retry = 1;
            break;
        }
        if (pi_quarantine_move(pfd, e->d_name, c->qdir, job, why) == 0)
            pi_warn("refused %s: %s", file, why);
    }
    if (d)
        closedir(d);
    close(pfd);
    if (res->retry)
        return -1;
    if (unlinkat(dirfd, sub, AT_REMOVEDIR) < 0 && errno != ENOENT) {
        kept(c, jobname, "a directory of it could not be removed");
        return -1;
    }
    return 0;
}

/* The newest change time (ns) of a directory and of the entries in it, profiles/ included. */
static long long newest_change(int dirfd, const char *sub)
{
    struct stat sb;
    long long newest = 0;
    int fd = pi_open_dir(dirfd, sub);
    if (fd < 0)
        return 0;
    if (fstat(fd, &sb) == 0)
        newest = (long long)sb.st_mtim.tv_sec * 1000000000LL + sb.st_mtim.tv_nsec;
    DIR *d = fdopendir(dup(fd));
    struct dirent *e;
    if (d)
        rewinddir(d);
    while (d && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            fstatat(fd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        long long t = (long long)sb.st_mtim.tv_sec * 1000000000LL + sb.st_mtim.tv_nsec;
        if (S_ISDIR(sb.st_mode) && strcmp(e->d_name, JS_PROFILES_DIR_NAME) == 0)
            t = newest_change(fd, e->d_name);
        if (t > newest)
            newest = t;
    }
    if (d)
        closedir(d);
    close(fd);
    return newest;
}

/* A job directory without a job record (the plugin could not write it: a full spool; or made
 * by hand) that nothing has touched for orphan_grace_seconds: its files are quarantined with
 * the reason and the directory removed, so that it cannot hold the spool for ever. */
static void process_orphan_dir(struct ctx *c, int spoolfd, int jobfd, const char *jobname, long long job,
                               struct scan_result *res)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    long long newest = newest_change(spoolfd, jobname);
    if (newest == 0 || newest / 1000000000LL + c->conf.orphan_grace_seconds > now.tv_sec)
        return;
    if (pi_db_ensure(&c->db, c->conf.migrate) != PI_DB_OK) {
        res->retry = 1;
        return;
    }
    char why[128];
    snprintf(why, sizeof why, "no job record, and nothing in its directory changed for %d s",
             c->conf.orphan_grace_seconds);
    if (quarantine_dir(c, jobfd, jobname, JS_PROFILES_DIR_NAME, job, c->conf.cluster, why, res) != 0)
        return;
    /* the step records and whatever else is beside them: alike */
    if (quarantine_dir(c, spoolfd, jobname, jobname, job, c->conf.cluster, why, res) == 0)
        pi_info("%s: no job record for %d s; quarantined and removed", jobname, c->conf.orphan_grace_seconds);
}

/* A job directory with no step record left: keep the job row up to date (job.json becomes
 * final at the job's end), and once the job is final and its grace time has passed,
 * quarantine leftover profiles and remove the directory. */
static void process_job_dir(struct ctx *c, int spoolfd, int jobfd, const char *jobname, long long job, struct scan_result *res)
{
    struct stat sb;
    if (fstatat(jobfd, JS_JOB_RECORD_NAME, &sb, AT_SYMLINK_NOFOLLOW) < 0) {
        if (errno == ENOENT)
            process_orphan_dir(c, spoolfd, jobfd, jobname, job, res);
        return;
    }
    struct seen_job *s = seen_find(c, job);
    long long mt = (long long)sb.st_mtim.tv_sec * 1000000000LL + sb.st_mtim.tv_nsec;
    char reason[PI_REASON_MAX];
    int invalid, gone;
    json_t *jr = NULL;
    if (s->mtime_ns != mt || s->size != (long long)sb.st_size) {
        jr = read_record(c, jobfd, jobname, JS_JOB_RECORD_NAME, 0, reason, sizeof reason, &invalid, &gone);
        if (!jr) {
            if (invalid) {
                char p[PATH_MAX];
                snprintf(p, sizeof p, "%s/%s", jobname, JS_JOB_RECORD_NAME);
                kept(c, p, reason);
            }
            return;
        }
        const char *cl = json_string_value(json_object_get(jr, "cluster"));
        int rc = pi_db_ensure(&c->db, c->conf.migrate);
        if (rc == PI_DB_OK)
            rc = pi_db_ingest_job(&c->db, cl && *cl ? cl : c->conf.cluster, jr, JS_SLICE_DEFAULT_SECONDS);
        if (rc != PI_DB_OK) {
            res->retry |= rc == PI_DB_RETRY;
            json_decref(jr);
            return;
        }
        s->mtime_ns = mt;
        s->size = (long long)sb.st_size;
    }
    if (jr) {
        s->final = json_is_true(json_object_get(jr, "final"));
        s->end_ns = json_is_integer(json_object_get(jr, "end_ns")) ? json_integer_value(json_object_get(jr, "end_ns")) : 0;
        json_decref(jr);
    }
    /* a running job's directory stays: job.json is re-read only when it changes */
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (!s->final || s->end_ns / 1000000000LL + c->conf.job_grace_seconds > now.tv_sec)
        return;
    /* nor while files still arrive (a node's backlog sent late; the bundles of a parcel whose
     * receiver was killed before its step record, which the sender sends again) */
    if (newest_change(spoolfd, jobname) / 1000000000LL + c->conf.job_grace_seconds > now.tv_sec)
        return;
    /* a step record that appeared since the pass listed the directory keeps it */
    DIR *jd = fdopendir(dup(jobfd));
    struct dirent *de;
    int recs = 0;
    if (jd)
        rewinddir(jd); /* the duplicate shares the offset the pass's listing left at the end */
    while (jd && (de = readdir(jd))) {
        char st[JS_STEP_NAME_MAX], nd[256];
        recs += de->d_name[0] != '.' && pi_parse_step_record_name(de->d_name, st, sizeof st, nd, sizeof nd) == 0;
    }
    if (jd)
        closedir(jd);
    if (recs)
        return;
    jr = read_record(c, jobfd, jobname, JS_JOB_RECORD_NAME, 0, reason, sizeof reason, &invalid, &gone);
    if (!jr)
        return;
    const char *cl = json_string_value(json_object_get(jr, "cluster"));
    char cluster[256];
    snprintf(cluster, sizeof cluster, "%s", cl && *cl ? cl : c->conf.cluster);
    json_decref(jr);
    /* leftover profiles: no step record will come for them */
    if (pi_db_ensure(&c->db, c->conf.migrate) != PI_DB_OK) {
        res->retry = 1;
        return;
    }
    remove_stale_temps(jobfd, c->conf.job_grace_seconds);
    int pfd = pi_open_dir(jobfd, JS_PROFILES_DIR_NAME);
    if (pfd >= 0) {
        remove_stale_temps(pfd, c->conf.job_grace_seconds);
        close(pfd);
    }
    if (quarantine_dir(c, jobfd, jobname, JS_PROFILES_DIR_NAME, job, cluster,
                       "no step record names this profile's step and node (the job ended)", res) != 0)
        return;
    pi_dispose(jobfd, JS_JOB_RECORD_NAME, c->conf.archive, job, NULL);
    remove_ledgers(jobfd);
    if (unlinkat(spoolfd, jobname, AT_REMOVEDIR) == 0)
        pi_info("%s: job ended and fully ingested; directory removed", jobname);
}

/* The live snapshots of a job directory (profiles/.live.<step>.<node>.json: the processes of
 * a running step on a node, docs/spool.md): for a step-node with no step record in the
 * directory, validate the snapshot like any bundle (a process may end "running"; the step's
 * span is the job's start until now) and store it as provisional rows.  The snapshot belongs
 * to the plugin: it is never moved or removed; a bad one is only logged (once). */
static void process_live(struct ctx *c, int jobfd, const char *jobname, long long job, struct scan_result *res)
{
    int pfd = pi_open_dir(jobfd, JS_PROFILES_DIR_NAME);
    if (pfd < 0)
        return;
    DIR *d = fdopendir(dup(pfd));
    struct dirent *e;
    json_t *jobrec = NULL;
    int jobrec_tried = 0;
    while (d && (e = readdir(d)) && !stop_requested && !res->retry) {
        const char *pre = ".live.";
        char recname[PATH_MAX], step[JS_STEP_NAME_MAX], node[256], path[PATH_MAX], reason[PI_REASON_MAX];
        if (strncmp(e->d_name, pre, strlen(pre)) != 0)
            continue;
        snprintf(recname, sizeof recname, "%s%s", JS_STEP_RECORD_PREFIX, e->d_name + strlen(pre));
        if (pi_parse_step_record_name(recname, step, sizeof step, node, sizeof node) < 0)
            continue;
        /* its step record is there: the final data is on its way (or in) */
        if (faccessat(jobfd, recname, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s/%s", jobname, JS_PROFILES_DIR_NAME, e->d_name);
        if (!jobrec_tried) {
            int invalid, gone;
            jobrec_tried = 1;
            jobrec = read_record(c, jobfd, jobname, JS_JOB_RECORD_NAME, 0, reason, sizeof reason, &invalid, &gone);
            if (jobrec && json_integer_value(json_object_get(jobrec, "job_id")) != job) {
                json_decref(jobrec);
                jobrec = NULL;
            }
        }
        if (!jobrec)
            break; /* no job record (yet): nothing to hang the snapshot on */
        struct stat sb;
        if (fstatat(pfd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0)
            continue;
        long long mtime = (long long)sb.st_mtim.tv_sec * 1000000000LL + sb.st_mtim.tv_nsec;
        /* a newer snapshot or a new bundle changes the directory or the snapshot */
        struct stat dsb;
        if (fstat(pfd, &dsb) == 0) {
            long long dm = (long long)dsb.st_mtim.tv_sec * 1000000000LL + dsb.st_mtim.tv_nsec;
            if (dm > mtime)
                mtime = dm;
        }
        struct live_seen *seen = NULL;
        for (size_t k = 0; k < c->nlive && !seen; k++)
            if (strcmp(c->live[k].key, path) == 0)
                seen = &c->live[k];
        if (seen && seen->mtime == mtime)
            continue;
        uint32_t uid = (uint32_t)json_integer_value(json_object_get(jobrec, "uid"));
        uid_t owner = c->conf.received ? (uid_t)c->conf.record_uid : (uid_t)uid;
        char *buf = NULL;
        size_t len = 0;
        int r = pi_read_file(pfd, e->d_name, owner, c->conf.received ? "the receiver (record_uid)" : "the job's user",
                             c->conf.max_profile_bytes, &buf, &len, reason, sizeof reason);
        if (r == PI_READ_GONE)
            continue;
        if (r == PI_READ_REFUSED) {
            kept(c, path, reason);
            continue;
        }
        json_t *b = pi_json_parse(buf, len, reason, sizeof reason);
        free(buf);
        if (!b || !pi_is_bundle(b)) {
            kept(c, path, b ? "live snapshot is not a bundle of profiles" : reason);
            json_decref(b);
            continue;
        }
        /* the span it must lie in: the job's start (else the snapshot's time, less a day) to now */
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        long long start = json_integer_value(json_object_get(jobrec, "start_ns"));
        if (start <= 0)
            start = mtime - 86400LL * 1000000000LL;
        json_int_t slen = json_integer_value(json_object_get(json_array_get(json_object_get(b, "profiles"), 0), "slice_seconds"));
        json_t *rec = json_pack("{s:I, s:I, s:s, s:s, s:I, s:I, s:I}", "job_id", (json_int_t)job, "uid", (json_int_t)uid,
                                "step", step, "node", node, "start_ns", (json_int_t)start,
                                "end_ns", (json_int_t)((long long)now.tv_sec * 1000000000LL + now.tv_nsec),
                                "slice_seconds", (json_int_t)(slen > 0 && slen <= 86400 ? slen : JS_SLICE_DEFAULT_SECONDS));
        const char *cl = json_string_value(json_object_get(jobrec, "cluster"));
        if (cl && *cl)
            json_object_set_new(rec, "cluster", json_string(cl));
        /* the processes that ended and were bundled are in the spool's bundles (their
         * refusals are left to the step record's ingest), the others in the snapshot: one
         * that is in both (bundled after the snapshot was taken) counts once */
        struct item it;
        memset(&it, 0, sizeof it);
        it.jobfd = jobfd;
        it.conf = &c->conf;
        snprintf(it.step, sizeof it.step, "%s", step);
        snprintf(it.node, sizeof it.node, "%s", node);
        json_incref(jobrec);
        pi_step_init(&it.st, jobrec, rec, c->conf.cluster);
        it.st.live = 1;
        read_profiles(&it);
        if (it.pfd >= 0)
            close(it.pfd);
        struct pi_step st = it.st;
        json_t *ps = json_object_get(b, "profiles");
        for (size_t k = json_array_size(ps); k-- > 0;) {
            const json_t *p = json_array_get(ps, k);
            json_int_t pid = json_integer_value(json_object_get(p, "pid"));
            json_int_t pstart = json_integer_value(json_object_get(p, "start_ns"));
            for (size_t x = 0; x < st.nprocs; x++)
                if (st.procs[x].pid == pid && st.procs[x].start_ns == pstart) {
                    json_array_remove(ps, k);
                    break;
                }
        }
        int count = (int)st.nprocs;
        if (pi_bundle_add(&st, &c->conf, b, &count, reason, sizeof reason) != PI_OK) {
            kept(c, path, reason); /* the step record's own ingest will say what it refuses */
        } else {
            pi_step_finish(&st);
            int rc = pi_db_ensure(&c->db, c->conf.migrate);
            if (rc == PI_DB_OK)
                rc = pi_db_ingest_live(&c->db, &c->conf, &st, mtime);
            if (rc == PI_DB_OK)
                pi_info("live %s: %zu processes, %zu slice rows (provisional)", path, st.nprocs, st.nslices);
            if (rc == PI_DB_OK || rc == PI_DB_DONE) {
                if (!seen) {
                    if (c->nlive >= PI_LIVE_SEEN_MAX) { /* bounded: forget them all, at worst read again */
                        for (size_t k = 0; k < c->nlive; k++)
                            free(c->live[k].key);
                        c->nlive = 0;
                    }
                    struct live_seen *l = realloc(c->live, (c->nlive + 1) * sizeof *l);
                    char *key = strdup(path);
                    if (l)
                        c->live = l;
                    if (l && key) {
                        seen = &c->live[c->nlive++];
                        seen->key = key;
                    } else {
                        free(key);
                    }
                }
                if (seen)
                    seen->mtime = mtime;
            }
            res->retry |= rc == PI_DB_RETRY;
            res->failed += rc == PI_DB_FAIL;
        }
        json_decref(b);
        pi_step_free(&st);
    }
    if (d)
        closedir(d);
    json_decref(jobrec);
    close(pfd);
}

/* After a scan: fold what it queued into the slice totals. */
static void rollup(struct ctx *c, struct scan_result *res)
{
    long folded = 0;
    int rc = pi_db_ensure(&c->db, c->conf.migrate);
    if (rc == PI_DB_OK)
        rc = pi_db_rollup(&c->db, &folded);
    if (rc == PI_DB_RETRY)
        res->retry = 1;
    else if (rc != PI_DB_OK)
        res->failed++;
    if (folded)
        pi_debug("folded %ld step records into the slice totals", folded);
}

static int parse_job_dir(const char *name, long long *job)
{
    if (strncmp(name, JS_JOB_DIR_PREFIX, strlen(JS_JOB_DIR_PREFIX)) != 0)
        return -1;
    const char *n = name + strlen(JS_JOB_DIR_PREFIX);
    if (*n < '1' || *n > '9')
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(n, &end, 10);
    if (errno || *end || v <= 0)
        return -1;
    *job = v;
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Make the asynchronous commits durable (one synchronous commit after them flushes the log up
 * to it), then clean the spool of their step records.  When the database is gone the files
 * stay: the next pass finds the step records ingested (or not) and acts accordingly. */
static void flush_deferred(struct ctx *c, int spoolfd, struct scan_result *res)
{
    if (c->ndeferred == 0)
        return;
    int rc = pi_db_ensure(&c->db, c->conf.migrate);
    if (rc == PI_DB_OK)
        rc = pi_db_durable(&c->db);
    for (size_t i = 0; i < c->ndeferred; i++) {
        struct deferred *d = &c->deferred[i];
        if (rc == PI_DB_OK) {
            int jobfd = pi_open_dir(spoolfd, d->jobname);
            if (jobfd >= 0) {
                clean_step(c, jobfd, d->job, d->recname, d->step, d->node, d->q);
                close(jobfd);
            }
        }
        free(d->jobname);
        free(d->recname);
        free_list(d->q);
    }
    if (rc != PI_DB_OK)
        res->retry |= rc == PI_DB_RETRY;
    c->ndeferred = 0;
}

struct jobdir {
    char *name;
    long long job;
    int fd;
    size_t first, n;           /* its items */
};

struct cost_key {
    char key[JS_STEP_NAME_MAX + 258]; /* "<step>.<node>" */
    struct item *it;
};

static int cmp_cost_key(const void *a, const void *b)
{
    return strcmp(((const struct cost_key *)a)->key, ((const struct cost_key *)b)->key);
}

/* The user and the cost (plan.h) of a job directory's step records: the job record's uid, and
 * each profile file of the step-node at its size (at least PI_SCHED_FILE_MIN), from one
 * listing of profiles/ (a file's size from fstatat: nothing is opened). */
static void cost_job(struct ctx *c, struct jobdir *j, struct item *its)
{
    char reason[PI_REASON_MAX];
    int invalid, gone;
    json_t *jr = read_record(c, j->fd, j->name, JS_JOB_RECORD_NAME, 0, reason, sizeof reason, &invalid, &gone);
    long long uid = jr ? (long long)json_integer_value(json_object_get(jr, "uid")) : -1;
    json_decref(jr);
    struct cost_key *keys = calloc(j->n + 1, sizeof *keys);
    if (!keys)
        abort();
    for (size_t k = 0; k < j->n; k++) {
        its[k].uid = uid;
        its[k].cost = PI_SCHED_FILE_MIN;
        snprintf(keys[k].key, sizeof keys[k].key, "%s.%s", its[k].step, its[k].node);
        keys[k].it = &its[k];
    }
    qsort(keys, j->n, sizeof *keys, cmp_cost_key);
    int pfd = pi_open_dir(j->fd, JS_PROFILES_DIR_NAME);
    DIR *d = pfd >= 0 ? fdopendir(pfd) : NULL;
    struct dirent *e;
    size_t sl = strlen(JS_RECORD_SUFFIX);
    while (d && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len <= sl || strcmp(e->d_name + len - sl, JS_RECORD_SUFFIX) != 0)
            continue;
        const char *dot = NULL; /* "<step>.<node>.<id>.json": the key ends at the dot before <id> */
        for (const char *p = e->d_name; p < e->d_name + len - sl; p++)
            if (*p == '.')
                dot = p;
        if (!dot || (size_t)(dot - e->d_name) >= sizeof keys[0].key)
            continue;
        struct cost_key want;
        memcpy(want.key, e->d_name, (size_t)(dot - e->d_name));
        want.key[dot - e->d_name] = '\0';
        struct cost_key *hit = bsearch(&want, keys, j->n, sizeof *keys, cmp_cost_key);
        if (!hit)
            continue;
        struct stat sb;
        long long size = fstatat(pfd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode) ? (long long)sb.st_size : 0;
        hit->it->cost += pi_sched_file_cost(size);
    }
    if (d)
        closedir(d);
    else if (pfd >= 0)
        close(pfd);
    free(keys);
}

static int cmp_str_ptr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The order of a pass (plan.h): each user's step records in name order, users by weighted
 * fair queuing, within user_budget_bytes for a user and pass_budget_bytes for the pass; the
 * ones left wait for the next pass (logged at info: no data is lost), those the pass's budget
 * left go first in it.  order[] receives the items to take; returns how many. */
static size_t plan_pass(struct ctx *c, struct jobdir *jobs, size_t njobs, struct item *items, size_t nitems, size_t *order,
                        struct scan_result *res)
{
    for (size_t k = 0; k < njobs; k++)
        cost_job(c, &jobs[k], items + jobs[k].first);
    struct pi_sched_item *si = calloc(nitems + 1, sizeof *si);
    if (!si)
        abort();
    char key[PATH_MAX * 2];
    for (size_t i = 0; i < nitems; i++) {
        si[i].uid = items[i].uid;
        si[i].cost = items[i].cost;
        snprintf(key, sizeof key, "%s/%s", items[i].jobname, items[i].recname);
        char *kp = key;
        si[i].aged = c->naged && bsearch(&kp, c->aged, c->naged, sizeof *c->aged, cmp_str_ptr) != NULL;
    }
    size_t ntaken = pi_sched_plan(si, nitems, c->conf.user_budget_bytes, c->conf.pass_budget_bytes, order);
    for (size_t i = 0; i < c->naged; i++)
        free(c->aged[i]);
    c->naged = 0;
    /* what waits, per user (the items of a user are together in name order, not in items[]) */
    long long pass_bytes = 0;
    size_t pass_left = 0;
    for (size_t i = 0; i < nitems; i++) {
        if (si[i].fate == PI_SCHED_PASS_BUDGET) {
            pass_left++;
            pass_bytes += si[i].cost;
            if (c->naged < PI_AGED_MAX) {
                char **a = realloc(c->aged, (c->naged + 1) * sizeof *a);
                if (!a)
                    abort();
                c->aged = a;
                snprintf(key, sizeof key, "%s/%s", items[i].jobname, items[i].recname);
                c->aged[c->naged++] = strdup(key);
            }
        } else if (si[i].fate == PI_SCHED_USER_BUDGET) {
            int first = 1; /* log once per user: at its first step record left */
            for (size_t k = 0; k < i && first; k++)
                first = !(si[k].fate == PI_SCHED_USER_BUDGET && si[k].uid == si[i].uid);
            if (!first)
                continue;
            size_t n = 0;
            long long bytes = 0;
            for (size_t k = i; k < nitems; k++)
                if (si[k].fate == PI_SCHED_USER_BUDGET && si[k].uid == si[i].uid) {
                    n++;
                    bytes += si[k].cost;
                }
            pi_info("budget: %zu step records of uid %lld (%lld bytes of profiles) wait for the next pass: the user's "
                    "budget of %lld bytes a pass (user_budget_bytes) is spent",
                    n, si[i].uid, bytes, c->conf.user_budget_bytes);
        }
    }
    if (pass_left)
        pi_info("budget: %zu step records (%lld bytes of profiles) wait for the next pass, where they go first: the "
                "pass's budget of %lld bytes (pass_budget_bytes) is spent",
                pass_left, pass_bytes, c->conf.pass_budget_bytes);
    qsort(c->aged, c->naged, sizeof *c->aged, cmp_str_ptr);
    res->deferred = (long)(nitems - ntaken);
    res->backlog += res->deferred;
    free(si);
    return ntaken;
}

static void scan(struct ctx *c, struct scan_result *res, int dry_run)
{
    memset(res, 0, sizeof *res);
    int spoolfd = open(c->conf.spool, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    c->spoolfd = spoolfd;
    if (spoolfd < 0) {
        char r[512];
        snprintf(r, sizeof r, "cannot open the spool: %s", strerror(errno));
        kept(c, c->conf.spool, r);
        return;
    }
    DIR *d = fdopendir(dup(spoolfd));
    struct dirent *e;
    char **names = NULL;
    size_t nnames = 0;
    while (d && (e = readdir(d))) {
        long long job;
        if (e->d_name[0] == '.' || parse_job_dir(e->d_name, &job) < 0)
            continue;
        names = realloc(names, (nnames + 1) * sizeof *names);
        names[nnames++] = strdup(e->d_name);
    }
    if (d)
        closedir(d);
    qsort(names, nnames, sizeof *names, cmp_str);

    /* the job directories and their step records, in name order */
    struct jobdir *jobs = calloc(nnames + 1, sizeof *jobs);
    struct item *items = NULL;
    size_t njobs = 0, nitems = 0;
    for (size_t i = 0; i < nnames; i++) {
        long long job;
        parse_job_dir(names[i], &job);
        int jobfd = pi_open_dir(spoolfd, names[i]);
        if (jobfd < 0) {
            if (errno != ENOENT)
                kept(c, names[i], errno == ELOOP || errno == ENOTDIR ? "not a directory (or a link): never followed" : strerror(errno));
            continue;
        }
        struct stat sb;
        if (fstat(jobfd, &sb) < 0 || sb.st_uid != (uid_t)c->conf.record_uid) {
            kept(c, names[i], "job directory is not owned by the record owner (record_uid): ignored");
            close(jobfd);
            continue;
        }
        if (c->inotify_fd >= 0) {
            char p[PATH_MAX];
            snprintf(p, sizeof p, "%s/%s", c->conf.spool, names[i]);
            inotify_add_watch(c->inotify_fd, p, IN_MOVED_TO | IN_CLOSE_WRITE | IN_CREATE | IN_DONT_FOLLOW | IN_ONLYDIR);
        }
        struct jobdir *j = &jobs[njobs++];
        j->name = names[i];
        j->job = job;
        j->fd = jobfd;
        j->first = nitems;
        DIR *jd = fdopendir(dup(jobfd));
        char **recs = NULL;
        size_t nrecs = 0;
        while (jd && (e = readdir(jd))) {
            char step[JS_STEP_NAME_MAX], node[256];
            if (e->d_name[0] == '.' || pi_parse_step_record_name(e->d_name, step, sizeof step, node, sizeof node) < 0)
                continue;
            recs = realloc(recs, (nrecs + 1) * sizeof *recs);
            recs[nrecs++] = strdup(e->d_name);
        }
        if (jd)
            closedir(jd);
        qsort(recs, nrecs, sizeof *recs, cmp_str);
        items = realloc(items, (nitems + nrecs + 1) * sizeof *items);
        for (size_t k = 0; k < nrecs; k++) {
            struct item *it = &items[nitems++];
            memset(it, 0, sizeof *it);
            it->jobname = j->name;
            it->recname = recs[k];
            it->job = job;
            it->jobfd = jobfd;
            it->pfd = -1;
            pi_parse_step_record_name(recs[k], it->step, sizeof it->step, it->node, sizeof it->node);
        }
        free(recs);
        j->n = nitems - j->first;
    }

    /* the order of the step records, and what waits for the next pass */
    size_t *order = calloc(nitems + 1, sizeof *order), ntaken = 0;
    if (!order)
        abort();
    if (dry_run)
        res->backlog = (long)nitems;
    else
        ntaken = plan_pass(c, jobs, njobs, items, nitems, order, res);

    /* the step records: the next one's profiles load while this one is written */
    pthread_t worker;
    int working = 0;
    size_t i = 0;
    if (i < ntaken && prepare_step(c, &items[order[0]], res))
        load_profiles(&items[order[0]]);
    for (; i < ntaken; i++) {
        if (working) {
            pthread_join(worker, NULL);
            working = 0;
        }
        if (stop_requested || res->retry) {
            res->backlog += (long)(ntaken - i);
            break;
        }
        struct item *next = i + 1 < ntaken ? &items[order[i + 1]] : NULL;
        if (next && prepare_step(c, next, res)) {
            if (pthread_create(&worker, NULL, load_profiles, next) == 0)
                working = 1;
            else
                load_profiles(next);
        }
        if (items[order[i]].ready)
            commit_step(c, &items[order[i]], res);
        if (c->ndeferred >= PI_DEFER_MAX)
            flush_deferred(c, spoolfd, res);
    }
    free(order);
    if (working)
        pthread_join(worker, NULL);
    for (size_t k = 0; k < nitems; k++) {
        if (items[k].ready) {  /* prepared, never committed (stop, database down) */
            if (items[k].pfd >= 0)
                close(items[k].pfd);
            pi_step_free(&items[k].st);
        }
    }
    flush_deferred(c, spoolfd, res);

    /* job directories whose step records are all gone */
    for (size_t k = 0; k < njobs; k++) {
        struct jobdir *j = &jobs[k];
        size_t left = 0;
        for (size_t r = j->first; r < j->first + j->n; r++)
            if (faccessat(j->fd, items[r].recname, F_OK, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT)
                left++;
        if (!dry_run && !stop_requested && !res->retry)
            process_live(c, j->fd, j->name, j->job, res);
        if (!dry_run && !stop_requested && !res->retry && left == 0)
            process_job_dir(c, spoolfd, j->fd, j->name, j->job, res);
        close(j->fd);
    }
    for (size_t k = 0; k < nitems; k++)
        free(items[k].recname);
    free(items);
    free(jobs);
    for (size_t k = 0; k < nnames; k++)
        free(names[k]);
    free(names);
    close(spoolfd);
    c->spoolfd = -1;
}

/* ---- privileges ------------------------------------------------------------------------ */
/* Started as root: become the service account, keeping CAP_DAC_OVERRIDE only (to read the
 * users' profile directories and remove ingested files); nothing that runs as root parses a
 * file a user could write.  0, or -1 logged. */
static int drop_root(const char *user)
{
    if (geteuid() != 0)
        return 0;
    if (!user) {
        pi_warn("running as root while parsing files that users wrote: set \"user\" (a service account) "
                "or run it as one with CAP_DAC_OVERRIDE (see profile_ingest(8))");
        return 0;
    }
    struct passwd *pw = getpwnam(user);
    if (!pw) {
        pi_error("user \"%s\": no such account", user);
        return -1;
    }
    struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    data[0].effective = data[0].permitted = 1u << CAP_DAC_OVERRIDE;
    if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0 || setgroups(0, NULL) < 0 ||
        setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) < 0 || setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) < 0 ||
        syscall(SYS_capset, &hdr, data) < 0 || prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0 ||
        prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
        pi_error("cannot become \"%s\" with CAP_DAC_OVERRIDE: %s", user, strerror(errno));
        return -1;
    }
    if (setuid(0) == 0) {
        pi_error("still able to regain root after dropping it: stopping");
        return -1;
    }
    pi_info("running as %s (uid %u) with CAP_DAC_OVERRIDE only", user, (unsigned)pw->pw_uid);
    return 0;
}

/* ---- configuration ------------------------------------------------------------------- */
static int load_conf(struct ctx *c, struct pi_conf *out)
{
    char err[1024];
    pi_conf_defaults(out);
    if (c->conf_path && (c->conf_required || access(c->conf_path, F_OK) == 0)) {
        if (pi_conf_load(out, c->conf_path, err, sizeof err) < 0) {
            pi_error("configuration: %s", err);
            return -1;
        }
    }
    for (int i = 0; i < c->noverrides; i++) {
        char *kv = strdup(c->overrides[i]);
        char *eq = strchr(kv, '=');
        int bad = !eq;
        if (eq) {
            *eq = '\0';
            bad = pi_conf_set(out, kv, eq + 1, err, sizeof err) < 0;
        } else {
            snprintf(err, sizeof err, "\"%s\" is not key=value", kv);
        }
        free(kv);
        if (bad) {
            pi_error("configuration: %s", err);
            return -1;
        }
    }
    return 0;
}

static void apply_conf(struct ctx *c)
{
    snprintf(c->qdir, sizeof c->qdir, "%s", c->conf.quarantine);
    pi_log_open(c->conf.syslog, (enum pi_level)c->conf.log_level);
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: profile_ingest [options]\n"
        "  --once                 ingest what the spool holds, then exit (for cron and the demo)\n"
        "  --migrate              apply the schema migrations, then exit\n"
        "  --status               print the backlog of the spool and the ingest rate, then exit\n"
        "  --retention            apply the retention settings of the database (every table class), then exit\n"
        "  --retention-dry-run    say what --retention would remove, then exit\n"
        "  --setup-roles          as a PostgreSQL superuser: create what is missing of the owner role,\n"
        "                         jobscreen_report, the web role and the database, migrate as the owner, then exit\n"
        "  --owner ROLE           --setup-roles: the ingest's login role, owner of the schema (default " PI_SETUP_OWNER_DEFAULT ")\n"
        "  --web-role ROLE        --setup-roles: the web CGI's login role (default " PI_SETUP_WEB_ROLE_DEFAULT ")\n"
        "  -c, --config FILE      configuration file (default " PI_CONF_DEFAULT_PATH ")\n"
        "  --spool DIR            spool directory (key spool)\n"
        "  --db CONNINFO          libpq connection string (key db)\n"
        "  --quarantine DIR       quarantine directory (key quarantine)\n"
        "  --archive DIR          move ingested files here instead of removing them (key archive)\n"
        "  --log-level LEVEL      error, warn, info or debug (key log_level)\n"
        "  --syslog               log to syslog instead of stderr\n"
        "  --no-migrate           do not apply migrations at start\n"
        "  --user NAME            started as root: run as NAME with CAP_DAC_OVERRIDE only (key user)\n"
        "  -s, --set KEY=VALUE    any configuration key (see profile_ingest(8))\n"
        "  -h, --help             this text\n");
}

static int wait_events(struct ctx *c, int timeout_ms)
{
    struct pollfd p = { .fd = c->inotify_fd, .events = POLLIN };
    int r = poll(&p, c->inotify_fd >= 0 ? 1 : 0, timeout_ms);
    if (r > 0) {
        /* let a burst of files settle, then drain */
        usleep(100000);
        char buf[65536];
        while (read(c->inotify_fd, buf, sizeof buf) > 0)
            ;
    }
    return r;
}

int main(int argc, char **argv)
{
    struct ctx c;
    memset(&c, 0, sizeof c);
    json_object_seed(0); /* before any thread: the hash seed is process-wide */
    c.inotify_fd = -1;
    c.conf_path = PI_CONF_DEFAULT_PATH;
    c.overrides = calloc((size_t)argc * 2 + 4, sizeof *c.overrides);
    int once = 0, migrate_only = 0, status = 0, retention = 0, setup_roles = 0;
    const char *owner = NULL, *web_role = NULL;
    enum { O_ONCE = 256, O_MIGRATE, O_STATUS, O_SPOOL, O_DB, O_QUAR, O_ARCH, O_LEVEL, O_SYSLOG, O_NOMIG, O_USER,
           O_RETENTION, O_RETENTION_DRY, O_SETUP_ROLES, O_OWNER, O_WEB_ROLE };
    static const struct option opts[] = {
        { "once", no_argument, 0, O_ONCE }, { "migrate", no_argument, 0, O_MIGRATE },
        { "status", no_argument, 0, O_STATUS }, { "config", required_argument, 0, 'c' },
        { "retention", no_argument, 0, O_RETENTION }, { "retention-dry-run", no_argument, 0, O_RETENTION_DRY },
        { "spool", required_argument, 0, O_SPOOL }, { "db", required_argument, 0, O_DB },
        { "quarantine", required_argument, 0, O_QUAR }, { "archive", required_argument, 0, O_ARCH },
        { "log-level", required_argument, 0, O_LEVEL }, { "syslog", no_argument, 0, O_SYSLOG },
        { "no-migrate", no_argument, 0, O_NOMIG }, { "set", required_argument, 0, 's' },
        { "user", required_argument, 0, O_USER },
        { "setup-roles", no_argument, 0, O_SETUP_ROLES }, { "owner", required_argument, 0, O_OWNER },
        { "web-role", required_argument, 0, O_WEB_ROLE },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
    };
    int o;
    char kv[8192];
#define OVERRIDE(k, v) do { snprintf(kv, sizeof kv, "%s=%s", (k), (v)); c.overrides[c.noverrides++] = strdup(kv); } while (0)
    while ((o = getopt_long(argc, argv, "c:s:h", opts, NULL)) != -1) {
        switch (o) {
        case O_ONCE: once = 1; break;
        case O_MIGRATE: migrate_only = 1; break;
        case O_STATUS: status = 1; break;
        case O_RETENTION: retention = 1; break;
        case O_RETENTION_DRY: retention = 2; break;
        case O_SETUP_ROLES: setup_roles = 1; break;
        case O_OWNER: owner = optarg; break;
        case O_WEB_ROLE: web_role = optarg; break;
        case 'c': c.conf_path = optarg; c.conf_required = 1; break;
        case O_SPOOL: OVERRIDE("spool", optarg); break;
        case O_DB: OVERRIDE("db", optarg); break;
        case O_QUAR: OVERRIDE("quarantine", optarg); break;
        case O_ARCH: OVERRIDE("archive", optarg); break;
        case O_LEVEL: OVERRIDE("log_level", optarg); break;
        case O_SYSLOG: OVERRIDE("syslog", "yes"); break;
        case O_NOMIG: OVERRIDE("migrate", "no"); break;
        case O_USER: OVERRIDE("user", optarg); break;
        case 's': c.overrides[c.noverrides++] = strdup(optarg); break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "profile_ingest: unexpected argument \"%s\"\n", argv[optind]);
        usage(stderr);
        return 2;
    }
    if ((owner || web_role) && !setup_roles) {
        fprintf(stderr, "profile_ingest: --owner and --web-role go with --setup-roles\n");
        return 2;
    }
    /* run by the database's admin (sudo -u postgres), who may not read a file holding the
     * ingest's password: only the connection string is wanted */
    if (setup_roles && !c.conf_required && access(c.conf_path, F_OK) == 0 && access(c.conf_path, R_OK) != 0) {
        fprintf(stderr, "profile_ingest: %s is not readable: --setup-roles goes on with --db or the default connection\n",
                c.conf_path);
        c.conf_path = NULL;
    }
    if (load_conf(&c, &c.conf) < 0)
        return 2;
    apply_conf(&c);
    /* before drop_root: it reads no spool, and peer authentication knows whoever ran it */
    if (setup_roles) {
        int rc = pi_setup_roles(c.conf.db, owner ? owner : PI_SETUP_OWNER_DEFAULT,
                                web_role ? web_role : PI_SETUP_WEB_ROLE_DEFAULT);
        pi_conf_free(&c.conf);
        return rc;
    }
    if (drop_root(c.conf.user) < 0)
        return 2;
    pi_db_init(&c.db, c.conf.db);

    if (migrate_only) {
        int rc = pi_db_ensure(&c.db, 0);
        if (rc == PI_DB_OK)
            rc = pi_db_migrate(&c.db);
        pi_db_close(&c.db);
        return rc == PI_DB_OK ? 0 : rc == PI_DB_RETRY ? 75 : 1;
    }
    if (retention) {
        /* the daily timer's run (contrib/systemd/jobscreen-retention.timer) */
        int rc = pi_db_ensure(&c.db, c.conf.migrate);
        if (rc == PI_DB_OK)
            rc = pi_db_retention(&c.db, retention == 2, stdout);
        else
            fprintf(stderr, "profile_ingest: the database is not available\n");
        pi_db_close(&c.db);
        return rc == PI_DB_OK ? 0 : rc == PI_DB_RETRY ? 75 : 1;
    }
    if (status) {
        struct scan_result r;
        scan(&c, &r, 1);
        printf("spool: %s\nbacklog: %ld step records waiting\n", c.conf.spool, r.backlog);
        int rc = pi_db_ensure(&c.db, 0);
        if (rc == PI_DB_OK)
            rc = pi_db_status(&c.db, stdout);
        else
            printf("database: unavailable\n");
        pi_db_close(&c.db);
        return rc == PI_DB_OK ? 0 : 1;
    }

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    if (once) {
        int attempts = 0, backoff = 1;
        struct scan_result r;
        long steps = 0, profiles = 0, slices = 0, refused = 0, deferred = 0;
        int idle = 0; /* passes in a row that ingested nothing */
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (;;) {
            scan(&c, &r, 0);
            if (!r.retry)
                rollup(&c, &r);
            steps += r.steps;
            profiles += r.profiles;
            slices += r.slices;
            refused += r.refused;
            deferred += r.deferred;
            idle = r.steps > 0 ? 0 : idle + 1;
            if (!r.retry && !stop_requested && (r.steps > 0 || (r.deferred > 0 && idle < 3)))
                continue; /* the files of this pass went at its end: one more pass cleans the job directories
                           * and takes what the budgets left */
            if (!r.retry || stop_requested || attempts >= c.conf.once_retries)
                break;
            attempts++;
            pi_warn("database unavailable: retrying in %d s (attempt %d of %d); the spool is kept (%ld step records waiting)",
                    backoff, attempts, c.conf.once_retries, r.backlog);
            sleep((unsigned)backoff);
            backoff = backoff * 2 > c.conf.backoff_max_seconds ? c.conf.backoff_max_seconds : backoff * 2;
        }
        pi_quarantine_expire(c.qdir, c.conf.quarantine_days);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        pi_info("done: %ld step records, %ld profiles, %ld slice rows, %ld files quarantined; %.2f s, %.1f step records/s; backlog %ld%s",
                steps, profiles, slices, refused, secs, secs > 0 ? (double)steps / secs : 0.0, r.backlog,
                deferred ? " (the budgets made some wait for a later pass)" : "");
        pi_db_close(&c.db);
        pi_conf_free(&c.conf);
        return r.retry ? 75 : r.failed ? 1 : 0;
    }

    /* the daemon */
    c.inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (c.inotify_fd < 0 || inotify_add_watch(c.inotify_fd, c.conf.spool, IN_CREATE | IN_MOVED_TO | IN_ONLYDIR) < 0)
        pi_warn("inotify on %s: %s: rescanning every %d s only", c.conf.spool, strerror(errno), c.conf.rescan_seconds);
    pi_info("started: spool %s, quarantine %s, rescan every %d s", c.conf.spool, c.qdir, c.conf.rescan_seconds);
    if (c.conf.metrics_listen) {
        char why[320];
        if (pi_metrics_start(c.conf.metrics_listen, why, sizeof why) < 0)
            pi_error("%s: no metrics are served (the ingest goes on)", why);
        else
            pi_info("metrics: http://%s/metrics", c.conf.metrics_listen);
    }
    int backoff = 1;
    time_t last_report = time(NULL), last_expire = 0;
    long window_steps = 0, window_slices = 0;
    while (!stop_requested) {
        if (reload_requested) {
            reload_requested = 0;
            struct pi_conf fresh;
            if (load_conf(&c, &fresh) == 0) {
                int newdb = strcmp(fresh.db, c.conf.db) != 0;
                pi_conf_free(&c.conf);
                c.conf = fresh;
                apply_conf(&c);
                if (newdb) {
                    pi_db_close(&c.db);
                    pi_db_init(&c.db, c.conf.db);
                }
                pi_info("configuration reloaded");
            } else {
                pi_conf_free(&fresh);
                pi_warn("configuration not reloaded: the old one stays");
            }
        }
        struct scan_result r;
        scan(&c, &r, 0);
        if (!r.retry && !stop_requested)
            rollup(&c, &r);
        pi_metrics_pass(r.backlog, r.deferred, !r.retry, r.failed);
        window_steps += r.steps;
        window_slices += r.slices;
        time_t now = time(NULL);
        if (now - last_expire >= 3600) {
            pi_quarantine_expire(c.qdir, c.conf.quarantine_days);
            last_expire = now;
        }
        if (r.steps > 0 || now - last_report >= 60) {
            if (window_steps > 0 || r.backlog > 0)
                pi_info("rate: %ld step records, %ld slice rows in the last %ld s; backlog %ld step records",
                        window_steps, window_slices, (long)(now - last_report) + 1, r.backlog);
            if (now - last_report >= 60) {
                last_report = now;
                window_steps = window_slices = 0;
            }
        }
        if (stop_requested)
            break;
        if (r.retry) {
            pi_warn("database unavailable: retrying in %d s; the spool is kept (%ld step records waiting)", backoff, r.backlog);
            wait_events(&c, backoff * 1000);
            backoff = backoff * 2 > c.conf.backoff_max_seconds ? c.conf.backoff_max_seconds : backoff * 2;
            continue;
        }
        if (backoff > 1)
            pi_info("database back: resumed");
        backoff = 1;
        /* what the budgets left waits for the next pass, not for the rescan */
        wait_events(&c, r.deferred > 0 ? 0 : c.conf.rescan_seconds * 1000);
    }
    {
        struct scan_result r;
        memset(&r, 0, sizeof r);
        rollup(&c, &r); /* best effort: what is left is folded by the next daemon */
    }
    pi_info("stopping on request");
    pi_db_close(&c.db);
    pi_conf_free(&c.conf);
    return 0;
}

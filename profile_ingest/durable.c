/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What leaves the spool, and when: nothing before the database holds it durably. A step
 * record's files go once the commit that wrote it is durable (the step transactions commit
 * asynchronously: a later synchronous commit flushes them all), each refused file to the
 * quarantine with its row in js.quarantine, the others removed or archived; and the debris
 * of a job directory (ledgers, temporary files, leftovers) goes once the job is over.
 */
#include "config.h"

#include "ingest.h"
#include "ingest_spool.h"
#include "log.h"
#include "record_quota.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void pi_free_list(char **l)
{
    if (!l)
        return;
    for (char **p = l; *p; p++)
        free(*p);
    free(l);
}

static int cmp_pair(const void *a, const void *b) { return strcmp(**(char **const *)a, **(char **const *)b); }

void pi_clean_step(struct ctx *c, int jobfd, long long job, const char *recname, const char *step,
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

void pi_quarantine_record(struct ctx *c, int jobfd, long long job, const char *name, const char *step,
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

/* The plugin's ledgers (.spool.<node>, .relay.<step>.<node>: docs/spool.md) and the room an
 * older plugin kept for a step's end (.reserve.<step>.<node>): no data of the job. */
void pi_remove_ledgers(int jobfd)
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
void pi_remove_stale_temps(int dirfd, int grace_s)
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

int pi_quarantine_dir(struct ctx *c, int dirfd, const char *jobname, const char *sub, long long job,
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
        pi_kept(c, jobname, "a directory of it could not be removed");
        return -1;
    }
    return 0;
}

void pi_defer_cleanup(struct ctx *c, const struct item *it, char **q)
{
    if (c->ndeferred == c->capdeferred) {
        c->capdeferred = c->capdeferred ? 2 * c->capdeferred : PI_DEFER_MAX;
        c->deferred = realloc(c->deferred, c->capdeferred * sizeof *c->deferred);
        if (!c->deferred)
            abort();
    }
    struct deferred *d = &c->deferred[c->ndeferred++];
    d->jobname = strdup(it->jobname);
    d->recname = strdup(it->recname);
    snprintf(d->step, sizeof d->step, "%s", it->step);
    snprintf(d->node, sizeof d->node, "%s", it->node);
    d->job = it->job;
    d->q = q;
}

/* One synchronous commit after the asynchronous ones flushes the log up to it. When the
 * database is gone the files stay: the next pass finds the step records ingested (or not) and
 * acts accordingly. */
void pi_flush_deferred(struct ctx *c, int spoolfd, struct scan_result *res)
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
                pi_clean_step(c, jobfd, d->job, d->recname, d->step, d->node, d->q);
                close(jobfd);
            }
        }
        free(d->jobname);
        free(d->recname);
        pi_free_list(d->q);
    }
    if (rc != PI_DB_OK)
        res->retry |= rc == PI_DB_RETRY;
    c->ndeferred = 0;
}

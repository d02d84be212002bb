/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jobscreen plugin in slurmstepd: the step's collection (stepd.h). The record quota ledger in
 * the record area; while the step runs, the relay (root, a child of slurmstepd) and under it
 * jobscreen-collect --watch as the job's user; at its end jobscreen-collect --final as the user
 * and the relay's last pass, whose refusals go into the step record (docs/plugin.md,
 * "Two places" and "Step end"). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <slurm/spank.h>

#include "profile_format.h"
#include "record_format.h"
#include "record_quota.h"
#include "relay.h"
#include "stepd.h"

#define st js_stepd

/* The job's directory in the record area (the tasks' JOBSCREEN_PROFILE_DIR) and the step's name. */
void js_stepd_records_dir(char *dir, size_t dirsize, char *step, size_t stepsize)
{
    snprintf(dir, dirsize, "%s/job.%" PRIu32, st.conf.record_dir, st.job_id);
    js_step_name(st.step_id, step, stepsize);
}

#define JS_COLLECT_SECONDS 60 /* a step's records are turned in well under a second; a bound all the same */

/* In the collector's child: become the job's user for good, then run it. Never returns. */
static void collector_child(char **argv, int out, int watching)
{
    gid_t gid = st.gid;
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
        _exit(126);
    if (setgroups(1, &gid) != 0 || setresgid(gid, gid, gid) != 0 || setresuid(st.uid, st.uid, st.uid) != 0 ||
        getuid() != st.uid || geteuid() != st.uid || (st.uid != 0 && setuid(0) == 0))
        _exit(126);
    if (watching) {
        prctl(PR_SET_PDEATHSIG, SIGTERM); /* gone with its parent, whatever happens */
    } else {
        /* the final collector blocks SIGTERM, which Slurm sends to everything under slurmstepd
         * as the job ends: srun has its exit messages before the plugin's exit runs, so an
         * srun-only job ends, and is signalled, while the collector turns its records. 22.05's
         * slurmstepd thread had SIGTERM blocked already; 25.11's has not (4 of 20 such jobs
         * lost their last records). Our deadline's SIGKILL, and Slurm's, still end it. The
         * watching one has the relay's mask, empty, and ends on its SIGTERM. */
        sigset_t term;
        sigemptyset(&term);
        sigaddset(&term, SIGTERM);
        sigprocmask(SIG_BLOCK, &term, NULL);
    }
    closefrom(3);
    execv(argv[0], argv);
    _exit(127);
}

/* The job's record quota on this node (common/record_quota.h): made in the record area by the
 * first profiled step of the job here, with this step's caps, given to the job's user. Root
 * writes into the user's directory only through a fresh file it created itself (O_EXCL, no
 * link followed), published with linkat, which never replaces what is there. */
void js_stepd_quota_ledger(void)
{
    char name[300], tmp[340];
    struct stat sb;
    if (!st.profiled || st.rec_dir < 0)
        return;
    snprintf(name, sizeof name, JS_QUOTA_PREFIX "%s", st.node);
    if (fstatat(st.rec_dir, name, &sb, AT_SYMLINK_NOFOLLOW) == 0) /* an earlier step made it */
        return;
    snprintf(tmp, sizeof tmp, ".quota-new.%s.%ld", st.node, (long)getpid());
    int fd = openat(st.rec_dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        js_stepd_error("jobscreen: job %" PRIu32 ": cannot make its record quota ledger: %m; its records are not capped",
                    st.job_id);
        return;
    }
    static char page[4096];
    struct js_quota q = {.cap_bytes = st.conf.record_quota, .cap_files = st.conf.record_files};
    memcpy(q.magic, JS_QUOTA_MAGIC, sizeof q.magic);
    memcpy(page, &q, sizeof q);
    if (write(fd, page, sizeof page) != (ssize_t)sizeof page || fchown(fd, st.uid, st.gid) != 0 ||
        (linkat(st.rec_dir, tmp, st.rec_dir, name, 0) != 0 && errno != EEXIST))
        js_stepd_error("jobscreen: job %" PRIu32 ": cannot make its record quota ledger: %m; its records are not capped",
                    st.job_id);
    unlinkat(st.rec_dir, tmp, 0);
    close(fd);
}

/* The relay of this step: the record area's bundles into the spool's profiles/ (relay.h).
 * NULL when the step has no profiles/ to relay into. */
static struct js_relay *step_relay(void)
{
    static struct js_relay r;
    static int made;
    if (made)
        return r.profilesfd >= 0 ? &r : NULL;
    made = 1;
    r.profilesfd = -1;
    if (!st.profiled || st.rec_dir < 0 || st.job_dir < 0)
        return NULL;
    r.recfd = st.rec_dir;
    r.jobfd = st.job_dir;
    r.profilesfd = openat(st.job_dir, JS_PROFILES_DIR_NAME, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (r.profilesfd < 0) {
        js_stepd_error("jobscreen: job %" PRIu32 ": %s/job.%" PRIu32 "/" JS_PROFILES_DIR_NAME ": %m; the step's profiles stay in %s",
                    st.job_id, st.conf.spool, st.job_id, st.conf.record_dir);
        return NULL;
    }
    js_step_name(st.step_id, r.step, sizeof r.step);
    snprintf(r.node, sizeof r.node, "%s", st.node);
    r.uid = st.uid;
    r.gid = st.gid;
    r.cap_bytes = st.conf.spool_quota;
    r.cap_files = st.conf.spool_files;
    r.live_min_ns = (int64_t)JS_LIVE_MIN_SECONDS * 1000000000;
    return &r;
}

#define JS_RELAY_TICK_MS 1000 /* how soon a bundle leaves the record area (memory) for the spool */

static volatile sig_atomic_t relay_stop;
static void on_relay_term(int sig) { (void)sig; relay_stop = 1; }

/* One pass of the running step's relay; what went wrong, and what the share refused first,
 * into the slurmd log at once. */
static void relay_once(struct js_relay *r, char *err, size_t errlen)
{
    if (r == NULL)
        return;
    if (js_relay_pass(r, 0, err, errlen) < 0)
        js_stepd_error("jobscreen: job %" PRIu32 ": relay: %s", st.job_id, err);
    if (r->notice[0])
        js_stepd_error("jobscreen: job %" PRIu32 ": relay: %s", st.job_id, r->notice);
}

/* The relay process while the step runs (root, a child of slurmstepd): starts the collector
 * as the job's user, moves what it bundles into the spool every second, and when told to
 * stop (or when slurmstepd goes) stops the collector and makes a last pass. It logs with
 * js_stepd_error, into the slurmd log that slurmstepd has open: its stderr is /dev/null (what
 * was written there before was lost), and Slurm's log.c holds its lock across fork
 * (pthread_atfork), so a forked child of the threaded slurmstepd finds it free. */
static void relay_main(char **collector_argv)
{
    struct sigaction sa = {.sa_handler = on_relay_term};
    sigset_t none;
    sigemptyset(&none);
    sigaction(SIGTERM, &sa, NULL);
    sigprocmask(SIG_SETMASK, &none, NULL); /* slurmstepd's thread that forked us blocks signals */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    pid_t collector = fork();
    if (collector == 0)
        collector_child(collector_argv, 2, 1);
    if (collector < 0)
        js_stepd_error("jobscreen: job %" PRIu32 ": cannot fork for %s --watch: %s", st.job_id, st.conf.collector,
                    strerror(errno));
    struct js_relay *r = step_relay();
    char err[512];
    js_stepd_gpu_start(); /* after the fork above: NVML's worker thread must not be forked */
    while (!relay_stop) {
        struct timespec ts = {.tv_sec = JS_RELAY_TICK_MS / 1000, .tv_nsec = (JS_RELAY_TICK_MS % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        js_stepd_gpu_tick();
        relay_once(r, err, sizeof err);
    }
    if (collector > 0) {
        int wst;
        kill(collector, SIGTERM);
        for (int i = 0; i < 300 && waitpid(collector, &wst, WNOHANG) == 0; i++)
            usleep(10000);
        if (waitpid(collector, &wst, WNOHANG) == 0) {
            kill(collector, SIGKILL);
            waitpid(collector, &wst, 0);
        }
    }
    relay_once(r, err, sizeof err);
    js_stepd_gpu_finish();
    _exit(0);
}

/* While the step runs, jobscreen-collect --watch (as the job's user) turns the records of
 * processes that ended into bundles, so that the record area holds a bounded number of files
 * however many commands the step runs, and keeps a live snapshot of the running ones; the
 * relay above it moves both into the spool. Messages go to slurmstepd's log file (stderr). */
void js_stepd_start_watcher(void)
{
    char dir[PATH_MAX + 64], step[JS_STEP_NAME_MAX];
    if (!st.profiled || st.conf.collector[0] == '\0' || st.job_dir < 0 || st.rec_dir < 0)
        return;
    js_stepd_records_dir(dir, sizeof dir, step, sizeof step);
    char *argv[] = {st.conf.collector, "--watch", dir, step, st.node, NULL};
    pid_t pid = fork();
    if (pid == 0)
        relay_main(argv);
    if (pid < 0)
        js_stepd_error("jobscreen: job %" PRIu32 ": cannot fork the relay: %m; profiles come at step end", st.job_id);
    else
        st.watcher = pid;
}

/* The relay and its collector end before the final collection (which recovers whatever they
 * left half done). */
void js_stepd_stop_watcher(void)
{
    if (st.watcher <= 0)
        return;
    kill(st.watcher, SIGTERM);
    int wst;
    for (int i = 0; i < 500 && waitpid(st.watcher, &wst, WNOHANG) == 0; i++)
        usleep(10000);
    if (kill(st.watcher, 0) == 0 && waitpid(st.watcher, &wst, WNOHANG) == 0) {
        kill(st.watcher, SIGKILL);
        waitpid(st.watcher, &wst, 0);
    }
    st.watcher = 0;
}

/* The step's records into bundles before the step record says the step is complete here:
 * jobscreen-collect runs as the job's user (nothing that runs as root reads what the user's
 * processes wrote), told how slurmstepd saw each task end. Its messages go to the slurmd log. */
void js_stepd_collect_records(int64_t end_ns)
{
    char dir[PATH_MAX + 64], step[JS_STEP_NAME_MAX], seen[32];
    if (!st.profiled || st.conf.collector[0] == '\0' || st.rec_dir < 0)
        return;
    js_stepd_records_dir(dir, sizeof dir, step, sizeof step);
    char **argv = calloc(8 + 2 * (size_t)st.ntasks, sizeof *argv);
    char (*status)[48] = calloc((size_t)st.ntasks + 1, sizeof *status);
    int pfd[2];
    if (argv == NULL || status == NULL || pipe2(pfd, O_CLOEXEC) != 0) {
        js_stepd_error("jobscreen: job %" PRIu32 ": cannot run %s: %m; the step's records stay in %s", st.job_id,
                    st.conf.collector, dir);
        goto out;
    }
    size_t n = 0;
    argv[n++] = st.conf.collector;
    argv[n++] = "--final";
    snprintf(seen, sizeof seen, "%" PRId64, end_ns);
    argv[n++] = "--seen-ns"; /* the tasks had ended by then */
    argv[n++] = seen;
    for (uint32_t i = 0; i < st.ntasks; i++)
        if (st.tasks[i].pid != JOBLOG_NULL && st.tasks[i].status != JOBLOG_NULL) {
            snprintf(status[i], sizeof status[i], "%" PRId64 "=%" PRId64, st.tasks[i].pid, st.tasks[i].status);
            argv[n++] = "--status";
            argv[n++] = status[i];
        }
    argv[n++] = dir;
    argv[n++] = step;
    argv[n++] = st.node;
    argv[n] = NULL;
    pid_t pid = fork();
    if (pid == 0)
        collector_child(argv, pfd[1], 0);
    close(pfd[1]);
    if (pid < 0) {
        js_stepd_error("jobscreen: job %" PRIu32 ": cannot fork for %s: %m", st.job_id, st.conf.collector);
        close(pfd[0]);
        goto out;
    }
    /* its messages, line by line, until it ends or its time is up */
    time_t deadline = time(NULL) + JS_COLLECT_SECONDS;
    char buf[4096];
    size_t have = 0;
    for (;;) {
        struct pollfd p = {.fd = pfd[0], .events = POLLIN};
        int left = (int)(deadline - time(NULL));
        if (left <= 0 || poll(&p, 1, left * 1000) <= 0)
            break;
        ssize_t r = read(pfd[0], buf + have, sizeof buf - 1 - have);
        if (r <= 0)
            break;
        have += (size_t)r;
        buf[have] = '\0';
        char *line = buf, *nl;
        while ((nl = strchr(line, '\n')) != NULL) {
            *nl = '\0';
            js_stepd_error("jobscreen: job %" PRIu32 ": %s", st.job_id, line);
            line = nl + 1;
        }
        have = strlen(line);
        memmove(buf, line, have + 1);
        if (have == sizeof buf - 1)
            have = 0; /* a line longer than the buffer: dropped */
    }
    close(pfd[0]);
    int wst = 0;
    pid_t got;
    while ((got = waitpid(pid, &wst, WNOHANG)) == 0 && time(NULL) < deadline)
        usleep(10000);
    if (got == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &wst, 0);
        js_stepd_error("jobscreen: job %" PRIu32 ": %s took more than %d s and was stopped; records left in %s",
                    st.job_id, st.conf.collector, JS_COLLECT_SECONDS, dir);
    } else if (got == pid && !(WIFEXITED(wst) && WEXITSTATUS(wst) == 0)) {
        js_stepd_error("jobscreen: job %" PRIu32 ": %s ended with status %d; records it could not turn stay in %s",
                    st.job_id, st.conf.collector, wst, dir);
    }
out:
    free(argv);
    free(status);
}

/* The last bundles into the spool; what the spool's share refused goes into the step record,
 * and into the slurmd log only (js_stepd_error): what the share refuses must not change a job's
 * output (tests/integration/spank/spool-quota.sh, its first check). */
void js_stepd_relay_last(struct joblog_step *s)
{
    char err[512], why[512];
    struct js_relay *r = step_relay();
    if (r == NULL)
        return;
    if (js_relay_pass(r, 1, err, sizeof err) < 0)
        js_stepd_error("jobscreen: job %" PRIu32 ": relay: %s", st.job_id, err);
    if (r->notice[0])
        js_stepd_error("jobscreen: job %" PRIu32 ": relay: %s", st.job_id, r->notice);
    struct js_relay_refused refused;
    js_relay_refused(r, &refused);
    if (refused.live_snapshots > 0) {
        snprintf(why, sizeof why, "they did not fit in the job's spool quota on this node (%" PRId64 " B; a snapshot is at most %u B)",
                 st.conf.spool_quota, JS_PROFILE_MAX_BYTES);
        js_stepd_error("jobscreen: job %" PRIu32 ": %s: %" PRId64 " live snapshots of the step (%" PRId64 " B) not copied",
                    st.job_id, why, refused.live_snapshots, refused.live_bytes);
        s->live_refused = refused.live_snapshots;
        s->live_refused_bytes = refused.live_bytes;
        joblog_set_string(&s->live_refused_reason, why, NULL);
    }
    if (refused.bundles > 0) {
        snprintf(why, sizeof why, "the job's spool quota on this node (%" PRId64 " B, %" PRId64 " bundles) was reached",
                 st.conf.spool_quota, st.conf.spool_files);
        js_stepd_error("jobscreen: job %" PRIu32 ": %s: %" PRId64 " bundles (%" PRId64 " B, %" PRId64 " processes) not kept",
                    st.job_id, why, refused.bundles, refused.bytes, refused.processes);
        s->unrecorded = refused.processes;
        joblog_set_string(&s->unrecorded_reason, why, NULL);
    }
    close(r->profilesfd);
    r->profilesfd = -1;
}

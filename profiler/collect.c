/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen-collect: turns the records that profiled processes left in a profile directory
 * (profile.h) into profiles (docs/profile-format.md), in bundles per step and node, and
 * removes each record it turned. Run as the job's user: by the plugin while a step runs and at
 * its end (spank/slurmstepd.c), by hand, or by the tests after a step. Nothing here trusts a
 * record more than its owner would: every offset and count is checked against the layout
 * before it is used. Design: docs/profiler.md, "Collection".
 *
 *   jobscreen-collect --watch DIR STEP NODE      while the step runs (bundles, live snapshot, pool)
 *   jobscreen-collect --final [--seen-ns NS] [--status PID=WAITSTATUS]... DIR STEP NODE
 *   jobscreen-collect [--final] --each DIR [STEP NODE]   one profile file per record
 *
 * Without --final only the records of images that ended (or were reaped) are turned; with it
 * (step end: every process of the step is gone) all of them, those nobody saw end as "unknown".
 * --status gives the wait status of a process seen from outside (slurmstepd, for its tasks),
 * --seen-ns when (wall clock, ns) they had ended.
 */
#include "config.h"

#include "collect.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define JS_MOUNTINFO_BYTES (1u << 20)
#define JS_MAX_MOUNTS 8192

volatile sig_atomic_t stop;
static void on_term(int sig) { (void)sig; stop = 1; }

/* The job's share of the spool on the node (common/record_quota.h), when the plugin made one. */
static void quota_attach(const char *node)
{
    char name[400];
    struct stat sb;
    snprintf(name, sizeof name, JS_QUOTA_PREFIX "%s", node);
    int fd = openat(C.dirfd, name, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size >= (off_t)sizeof(struct js_quota)) {
        void *m = mmap(NULL, sizeof(struct js_quota), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (m != MAP_FAILED && memcmp(((struct js_quota *)m)->magic, JS_QUOTA_MAGIC, 8) == 0)
            C.quota = m;
        else if (m != MAP_FAILED)
            munmap(m, sizeof(struct js_quota));
    }
    close(fd);
}

/* How many records are ready to be turned (their own end, or a parent's word): cheap reads. */
static size_t ready_count(void)
{
    size_t n, ready = 0;
    char **names = list_records(&n);
    for (size_t i = 0; names && i < n; i++) {
        int fd = openat(C.dirfd, names[i], O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        int32_t state = 0, seen = 0;
        if (fd >= 0 && pread(fd, &state, sizeof state, offsetof(struct js_global, state)) == (ssize_t)sizeof state &&
            pread(fd, &seen, sizeof seen, offsetof(struct js_global, reaped.seen)) == (ssize_t)sizeof seen &&
            (state == JS_REC_ENDED || seen))
            ready++;
        if (fd >= 0)
            close(fd);
        free(names[i]);
    }
    free(names);
    return ready;
}

/* Records made ahead for the step's processes to claim (profiler/image_record.c):
 * .pool.<step>.<node>.<k>, sized and their first chunks written, charged to the quota like the
 * records they become. The pool starts small (a step that starts few processes pays little for
 * it) and doubles, up to JS_REC_POOL, each time it is found more than half taken. Returns how
 * many it made. */
static unsigned pool_target = 4;

static unsigned pool_fill(void)
{
    static char zero[JS_REC_CHUNK];
    struct js_global lay;
    char name[600], tmp[600];
    struct stat sb;
    uint64_t size = js_rec_layout(&lay);
    int64_t first = (int64_t)JS_REC_FIRST_CHUNKS * JS_REC_CHUNK;
    unsigned made = 0, size_k = pool_target;
    /* the pool takes at most a sixteenth of the job's share: steps beside this one need theirs */
    if (C.quota && C.quota->cap_files > 0 && (int64_t)size_k > C.quota->cap_files / 16)
        size_k = (unsigned)(C.quota->cap_files / 16);
    if (C.quota && C.quota->cap_bytes > 0 && (int64_t)size_k * first > C.quota->cap_bytes / 16)
        size_k = (unsigned)(C.quota->cap_bytes / 16 / first);
    for (unsigned k = 0; k < size_k && !stop; k++) {
        snprintf(name, sizeof name, JS_REC_POOL_PREFIX "%s%u", C.prefix, k);
        if (fstatat(C.dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0)
            continue;
        if (js_quota_charge(C.quota, 1, first) != 0)
            break; /* the job's share is used up: processes will find out themselves */
        snprintf(tmp, sizeof tmp, ".pool-new.%s%u", C.prefix, k);
        int fd = openat(C.dirfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        int ok = fd >= 0 && ftruncate(fd, (off_t)size) == 0;
        for (uint64_t c = 0; ok && c < JS_REC_FIRST_CHUNKS; c++)
            ok = pwrite(fd, zero, sizeof zero, (off_t)(c * JS_REC_CHUNK)) == (ssize_t)sizeof zero;
        if (fd >= 0)
            close(fd);
        if (ok && renameat2(C.dirfd, tmp, C.dirfd, name, RENAME_NOREPLACE) == 0) {
            made++;
        } else {
            unlinkat(C.dirfd, tmp, 0);
            js_quota_charge(C.quota, -1, -first);
        }
    }
    static int filled;
    if (!filled) { /* the first fill is no demand */
        filled = 1;
        return 0;
    }
    if (made > pool_target / 2 && pool_target < JS_REC_POOL)
        pool_target *= 2;
    return made;
}

/* The step is over: the records nobody claimed go, and leave the quota; so do the temporaries
 * a watcher stopped in the middle left (slurmstepd kills what is left of a step). */
static void pool_drain(void)
{
    char tmp[600];
    DIR *d = open_dir();
    struct dirent *e;
    size_t pl = strlen(C.prefix);
    while (d && (e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        if (strncmp(n, ".pool-new.", 10) == 0 && strncmp(n + 10, C.prefix, pl) == 0) {
            if (unlinkat(C.dirfd, n, 0) == 0)
                js_quota_charge(C.quota, -1, -(int64_t)JS_REC_FIRST_CHUNKS * JS_REC_CHUNK);
        } else {
            size_t l = strlen(n);
            snprintf(tmp, sizeof tmp, ".live.%sjson.tmp", C.prefix);
            int live_tmp = strcmp(n, tmp) == 0;
            int bundle_tmp = n[0] == '.' && strncmp(n + 1, C.prefix, pl) == 0 && n[1 + pl] == 'b' && l > 9 &&
                             strcmp(n + l - 9, ".json.tmp") == 0;
            if (live_tmp || bundle_tmp)
                unlinkat(C.dirfd, n, 0);
        }
    }
    if (d)
        closedir(d);
    char name[600];
    for (unsigned k = 0; k < JS_REC_POOL; k++) {
        snprintf(name, sizeof name, JS_REC_POOL_PREFIX "%s%u", C.prefix, k);
        if (unlinkat(C.dirfd, name, 0) == 0)
            js_quota_charge(C.quota, -1, -(int64_t)JS_REC_FIRST_CHUNKS * JS_REC_CHUNK);
    }
}

#define JS_WATCH_TICK_MS 250  /* a look at the directory: a readdir and two preads a record */
#define JS_WATCH_BATCH 128     /* ended records that trigger a pass at once */
#define JS_WATCH_PASS_S 20     /* else a pass at least this often when one has ended */
#define JS_WATCH_LIVE_S 15     /* the live snapshot: four times a minute */

/* --watch: while the step runs, ended records go into bundles (the spool holds the running
 * processes and a bounded number of ended ones, however many commands the step runs) and the
 * running ones into the live snapshot. Ends on SIGTERM or when its parent (slurmstepd) goes. */
static int watch(void)
{
    struct sigaction sa = {.sa_handler = on_term};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    pid_t parent = getppid();
    time_t last_pass = time(NULL), last_live = 0;
    while (!stop && getppid() == parent) {
        time_t now = time(NULL);
        size_t ready = ready_count();
        int busy = ready >= JS_WATCH_BATCH;
        if (busy || (ready > 0 && now - last_pass >= JS_WATCH_PASS_S)) {
            bundle_pass();
            last_pass = now;
        }
        if (now - last_live >= JS_WATCH_LIVE_S) {
            live_snapshot();
            last_live = now;
        }
        /* bundling comes first: while processes end in numbers, look again soon and leave the
         * pool; a pool that was drained is looked at again five times as soon */
        long ms = JS_WATCH_TICK_MS / 5;
        if (!busy) {
            unsigned target = pool_target;
            ms = pool_fill() > target / 2 ? JS_WATCH_TICK_MS / 5 : JS_WATCH_TICK_MS;
        }
        struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
    return 0;
}

static int usage(void)
{
    fprintf(stderr,
            "usage: %s [--final | --watch] [--each] [--seen-ns NS] [--status PID=WAITSTATUS]... DIR [STEP NODE]\n",
            prog);
    return 2;
}

int main(int argc, char **argv)
{
    int watching = 0;
    C.st = calloc((size_t)argc, sizeof *C.st);
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (strcmp(argv[i], "--final") == 0)
            C.final = 1;
        else if (strcmp(argv[i], "--watch") == 0)
            watching = 1;
        else if (strcmp(argv[i], "--each") == 0)
            C.each = 1;
        else if (strcmp(argv[i], "--seen-ns") == 0 && i + 1 < argc)
            C.seen_ns = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--status") == 0 && i + 1 < argc) {
            long pid, status;
            char *e1, *e2;
            pid = strtol(argv[++i], &e1, 10);
            if (*e1 != '=' || pid <= 0 || (status = strtol(e1 + 1, &e2, 10), *e2 != '\0'))
                return usage();
            C.st[C.nst].pid = (pid_t)pid;
            C.st[C.nst++].status = (int)status;
        } else
            return usage();
    }
    if ((argc - i != 1 && argc - i != 3) || (argc - i == 1 && !C.each) || (watching && (C.final || C.each)))
        return usage(); /* bundles are per step and node: they need the scope */
    const char *dir = argv[i];
    if (argc - i == 3) {
        if (strchr(argv[i + 1], '/') || strchr(argv[i + 2], '/'))
            return usage();
        snprintf(C.prefix, sizeof C.prefix, "%s.%s.", argv[i + 1], argv[i + 2]);
        snprintf(C.step, sizeof C.step, "%s", argv[i + 1]);
    }
    C.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (C.dirfd < 0) {
        fprintf(stderr, "%s: %s: %s\n", prog, dir, strerror(errno));
        return 1;
    }
    if (argc - i == 3)
        quota_attach(argv[i + 2]);
    static char mountinfo[JS_MOUNTINFO_BYTES];
    static struct mount mounts[JS_MAX_MOUNTS];
    FILE *mi = fopen("/proc/self/mountinfo", "r");
    if (mi) {
        size_t n = fread(mountinfo, 1, sizeof mountinfo - 1, mi);
        mountinfo[n] = '\0';
        fclose(mi);
        C.nm = parse_mounts(mountinfo, mounts, JS_MAX_MOUNTS);
    }
    C.mounts = mounts;
    if (watching)
        return watch();
    long turned = C.each ? each_pass() : bundle_pass();
    if (C.final && !C.each) {
        pool_drain();
        char live[600];
        snprintf(live, sizeof live, ".live.%sjson", C.prefix);
        unlinkat(C.dirfd, live, 0); /* the step is over: its profiles say it all */
    }
    free(C.st);
    if (turned < 0) {
        fprintf(stderr, "%s: %s: some records could not be turned into profiles; they are kept\n", prog, dir);
        return 1;
    }
    return 0;
}

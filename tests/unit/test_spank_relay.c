/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the plugin's relay (spank/relay.h): finished bundles move from the record area
 * into the spool's profiles/ under names root chooses, the job's share is charged and enforced
 * there, a refused bundle is counted in processes, a bundle stopped half way is finished
 * exactly once, and nothing but the user's own regular files is ever copied; the live snapshot
 * is charged to the share (its last copy's bytes), refused when it does not fit, copied no
 * more often than its interval; the job epilog removes the record area at any depth. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "relay.h"

static char top[256];
static struct js_relay R;

static int dir_at(const char *sub)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", top, sub);
    if (mkdir(p, 0700) != 0)
        return -1;
    return open(p, O_RDONLY | O_DIRECTORY);
}

static int setup(void **state)
{
    (void)state;
    snprintf(top, sizeof top, "/tmp/js-test-relay.XXXXXX");
    if (mkdtemp(top) == NULL)
        return -1;
    memset(&R, 0, sizeof R);
    R.recfd = dir_at("records");
    R.jobfd = dir_at("job");
    R.profilesfd = dir_at("job/profiles");
    snprintf(R.step, sizeof R.step, "0");
    snprintf(R.node, sizeof R.node, "n1");
    R.uid = geteuid(); /* the user's files are ours here: the owner check is tested apart */
    R.gid = getegid();
    return R.recfd >= 0 && R.jobfd >= 0 && R.profilesfd >= 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    close(R.recfd);
    close(R.jobfd);
    close(R.profilesfd);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    return system(cmd) == 0 ? 0 : -1;
}

/* a bundle of n profiles (one line each, as jobscreen-collect writes them) */
static void put_bundle(const char *name, int n)
{
    int fd = openat(R.recfd, name, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    dprintf(fd, "{\"format\":\"jobscreen-profile-bundle\",\"version\":1,\"profiles\":[");
    for (int i = 0; i < n; i++)
        dprintf(fd, "%s{\"pid\":%d}\n", i ? "," : "", 100 + i);
    dprintf(fd, "]}\n");
    close(fd);
}

static int exists(int dirfd, const char *name)
{
    struct stat sb;
    return fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0;
}

static off_t size_of(int dirfd, const char *name)
{
    struct stat sb;
    return fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 ? sb.st_size : -1;
}

static void bundles_move_under_roots_names_and_leave_tombstones(void **state)
{
    (void)state;
    char err[256];
    put_bundle("0.n1.b1.json", 3);
    put_bundle("0.n1.b2.json", 1);
    put_bundle("1.n1.b1.json", 1);   /* another step's: not this relay's */
    put_bundle("0.n2.b1.json", 1);   /* another node's */
    put_bundle("0.n1.b3.json.tmp", 1); /* not finished */
    off_t s1 = size_of(R.recfd, "0.n1.b1.json");
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 2);
    assert_int_equal(size_of(R.profilesfd, "0.n1.b1.json"), s1);
    assert_true(exists(R.profilesfd, "0.n1.b2.json"));
    assert_false(exists(R.recfd, "0.n1.b1.json"));
    assert_int_equal(size_of(R.recfd, ".0.n1.b1.json.sent"), 0); /* emptied: its memory is given back */
    assert_true(exists(R.recfd, "1.n1.b1.json"));
    assert_true(exists(R.recfd, "0.n2.b1.json"));
    assert_true(exists(R.recfd, "0.n1.b3.json.tmp"));
    /* the collector numbers from 1 again once its tombstones are gone: root's names go on */
    unlinkat(R.recfd, ".0.n1.b1.json.sent", 0);
    put_bundle("0.n1.b1.json", 2);
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 1);
    assert_true(exists(R.profilesfd, "0.n1.b3.json"));
    /* the end: tombstones of the step go, the others' stay */
    assert_int_equal(js_relay_pass(&R, 1, err, sizeof err), 0);
    assert_false(exists(R.recfd, ".0.n1.b2.json.sent"));
    struct js_relay_refused none;
    js_relay_refused(&R, &none);
    assert_int_equal(none.bundles, 0);
}

static void the_share_is_enforced_and_what_it_refuses_counted(void **state)
{
    (void)state;
    char err[256];
    R.cap_files = 2;
    put_bundle("0.n1.b1.json", 5);
    put_bundle("0.n1.b2.json", 1);
    put_bundle("0.n1.b3.json", 7);
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 2);
    assert_false(exists(R.profilesfd, "0.n1.b3.json"));
    assert_false(exists(R.recfd, "0.n1.b3.json")); /* refused: gone from memory too */
    struct js_relay_refused ref;
    js_relay_refused(&R, &ref);
    assert_int_equal(ref.bundles, 1);
    assert_int_equal(ref.processes, 7);
    assert_true(ref.bytes > 0);
    /* the share is the job's on the node: another step of it finds it taken */
    struct js_relay other = R;
    snprintf(other.step, sizeof other.step, "batch");
    put_bundle("batch.n1.b1.json", 4);
    assert_int_equal(js_relay_pass(&other, 0, err, sizeof err), 0);
    js_relay_refused(&other, &ref);
    assert_int_equal(ref.processes, 4);
    /* a bundle of version 3 (the processes as columns, on one line) says how many it holds */
    int vfd = openat(R.recfd, "batch.n1.b2.json", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(vfd >= 0);
    dprintf(vfd, "{\"format\":\"jobscreen-profile-bundle\",\"version\":3,\"processes\":128,\"files\":0,\"columns\":{}}\n");
    close(vfd);
    assert_int_equal(js_relay_pass(&other, 0, err, sizeof err), 0);
    js_relay_refused(&other, &ref);
    assert_int_equal(ref.processes, 4 + 128);
    /* a huge file in a bundle's name (sparse: no memory of the user's) is refused at once,
     * read no further than a bundle can be long */
    int hfd = openat(R.recfd, "0.n1.b9.json", O_WRONLY | O_CREAT, 0600);
    assert_true(hfd >= 0);
    assert_int_equal(ftruncate(hfd, (off_t)1 << 40), 0);
    close(hfd);
    time_t t0 = time(NULL);
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 0);
    assert_true(time(NULL) - t0 < 10);
    assert_false(exists(R.recfd, "0.n1.b9.json"));
    js_relay_refused(&R, &ref);
    assert_int_equal(ref.bundles, 2);
    /* and bytes: a share of 100 B takes nothing bigger */
    R.cap_files = 0;
    R.cap_bytes = 100;
    snprintf(R.node, sizeof R.node, "n2");
    put_bundle("0.n2.b1.json", 9);
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 0);
    js_relay_refused(&R, &ref);
    assert_int_equal(ref.processes, 9);
}

static void a_bundle_stopped_half_way_is_finished_once(void **state)
{
    (void)state;
    char err[256];
    R.cap_files = 1; /* room for one bundle: taking the share twice for it would refuse it */
    put_bundle("0.n1.b1.json", 2);
    /* the copy cannot be made (its temporary name is taken): the bundle stays, in flight */
    assert_int_equal(mkdirat(R.profilesfd, ".0.n1.b1.json.tmp", 0700), 0);
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "0.n1.b1.json: cannot copy into the spool as 0.n1.b1.json"));
    assert_true(exists(R.recfd, "0.n1.b1.json"));
    /* the next pass finishes it under the same name, without taking the share again */
    assert_int_equal(unlinkat(R.profilesfd, ".0.n1.b1.json.tmp", AT_REMOVEDIR), 0);
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 1);
    assert_true(exists(R.profilesfd, "0.n1.b1.json"));
    struct js_relay_refused ref;
    js_relay_refused(&R, &ref);
    assert_int_equal(ref.bundles, 0);
    /* the share is used up now: the next bundle is refused */
    put_bundle("0.n1.b2.json", 3);
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 0);
    js_relay_refused(&R, &ref);
    assert_int_equal(ref.processes, 3);
}

static void only_the_users_own_regular_files_are_copied(void **state)
{
    (void)state;
    char err[256], target[512];
    /* a link to a file of root's, a FIFO, a second link to a file: never copied */
    snprintf(target, sizeof target, "%s/secret", top);
    int fd = open(target, O_WRONLY | O_CREAT, 0600);
    assert_true(fd >= 0);
    dprintf(fd, "secret\n");
    close(fd);
    assert_int_equal(symlinkat(target, R.recfd, "0.n1.b1.json"), 0);
    assert_int_equal(mkfifoat(R.recfd, "0.n1.b2.json", 0600), 0);
    char p[600];
    snprintf(p, sizeof p, "%s/records/0.n1.b3.json", top);
    assert_int_equal(link(target, p), 0);
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), -1);
    assert_false(exists(R.profilesfd, "0.n1.b1.json"));
    assert_false(exists(R.profilesfd, "0.n1.b2.json"));
    assert_false(exists(R.profilesfd, "0.n1.b3.json"));
    assert_non_null(strstr(err, "left where it is"));
    /* a file of another user's */
    if (geteuid() == 0) {
        put_bundle("0.n1.b4.json", 1);
        assert_int_equal(fchownat(R.recfd, "0.n1.b4.json", 65534, 65534, 0), 0);
        js_relay_pass(&R, 0, err, sizeof err);
        assert_false(exists(R.profilesfd, "0.n1.b1.json"));
        assert_true(exists(R.recfd, "0.n1.b4.json"));
    }
}

static void the_live_snapshot_is_copied_when_it_changes_and_goes_at_the_end(void **state)
{
    (void)state;
    char err[256];
    int fd = openat(R.recfd, ".live.0.n1.json", O_WRONLY | O_CREAT, 0600);
    dprintf(fd, "{\"profiles\":[]}\n");
    close(fd);
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 0);
    off_t first = size_of(R.profilesfd, ".live.0.n1.json");
    assert_true(first > 0);
    fd = openat(R.recfd, ".live.0.n1.json.tmp", O_WRONLY | O_CREAT, 0600);
    dprintf(fd, "{\"profiles\":[{\"pid\":1}]}\n");
    close(fd);
    assert_int_equal(renameat(R.recfd, ".live.0.n1.json.tmp", R.recfd, ".live.0.n1.json"), 0);
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 0);
    assert_true(size_of(R.profilesfd, ".live.0.n1.json") > first);
    assert_int_equal(js_relay_pass(&R, 1, err, sizeof err), 0);
    assert_false(exists(R.profilesfd, ".live.0.n1.json"));
}

/* the job's share on the node, as its ledger (.spool.n1) holds it: bytes taken */
static int64_t share_bytes(void)
{
    int64_t v[3] = {0, 0, 0};
    int fd = openat(R.jobfd, ".spool.n1", O_RDONLY);
    if (fd >= 0) {
        assert_int_equal(pread(fd, v, sizeof v, 0), (ssize_t)sizeof v);
        close(fd);
    }
    return v[1];
}

/* a live snapshot of size bytes, written as the collector does (a new file, renamed), and a
 * moment after it */
static void put_live(size_t size, char fill)
{
    char *buf = malloc(size);
    assert_non_null(buf);
    memset(buf, fill, size);
    int fd = openat(R.recfd, ".live.0.n1.json.tmp", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, buf, size), (ssize_t)size);
    close(fd);
    free(buf);
    assert_int_equal(renameat(R.recfd, ".live.0.n1.json.tmp", R.recfd, ".live.0.n1.json"), 0);
    /* the least interval after a copy is its bytes at JS_LIVE_BYTES_PER_SECOND: 10 ms for 10 KB */
    struct timespec ts = {.tv_sec = 0, .tv_nsec = 10000000};
    nanosleep(&ts, NULL);
}

static void the_live_snapshot_is_charged_to_the_share_and_replaces_its_predecessor(void **state)
{
    (void)state;
    char err[256];
    struct js_relay_refused ref;
    R.cap_bytes = 10000;
    put_live(3000, 'a');
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 0);
    assert_int_equal(size_of(R.profilesfd, ".live.0.n1.json"), 3000);
    assert_int_equal(share_bytes(), 3000);
    put_live(5000, 'b'); /* replaces it in the ledger: 5000, not 8000 */
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 0);
    assert_int_equal(size_of(R.profilesfd, ".live.0.n1.json"), 5000);
    assert_int_equal(share_bytes(), 5000);
    assert_string_equal(R.notice, "");
    /* one that does not fit beside its predecessor (both are on disk while it is copied): refused,
     * counted once however often it is looked at, said once; the predecessor stays */
    put_live(6000, 'c');
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 0);
    assert_non_null(strstr(R.notice, ".live.0.n1.json (6000 B): more than the job's share of the spool on this node has left"));
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 0);
    assert_string_equal(R.notice, "");
    js_relay_refused(&R, &ref);
    assert_int_equal(ref.live_snapshots, 1);
    assert_int_equal(ref.live_bytes, 6000);
    assert_int_equal(ref.bundles, 0);
    assert_int_equal(size_of(R.profilesfd, ".live.0.n1.json"), 5000);
    assert_int_equal(share_bytes(), 5000);
    /* bundles and the snapshot share the share */
    put_bundle("0.n1.b1.json", 1);
    off_t b1 = size_of(R.recfd, "0.n1.b1.json");
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 1);
    assert_int_equal(share_bytes(), 5000 + b1);
    /* one larger than a profile can be (sparse: nothing to read) is refused at once */
    int fd = openat(R.recfd, ".live.0.n1.json", O_WRONLY | O_TRUNC);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)1 << 40), 0);
    close(fd);
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 0);
    js_relay_refused(&R, &ref);
    assert_int_equal(ref.live_snapshots, 2);
    assert_int_equal(size_of(R.profilesfd, ".live.0.n1.json"), 5000);
    /* the step's end: the copy goes, and its bytes go back to the share before the last bundles */
    assert_int_equal(js_relay_pass(&R, 1, err, sizeof err), 0);
    assert_false(exists(R.profilesfd, ".live.0.n1.json"));
    assert_int_equal(share_bytes(), b1);
}

static void the_live_snapshot_is_copied_no_more_often_than_its_interval(void **state)
{
    (void)state;
    char err[256];
    R.live_min_ns = 1000000000; /* 1 s here; the plugin's is JS_LIVE_MIN_SECONDS */
    put_live(100, 'a');
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 0);
    assert_int_equal(size_of(R.profilesfd, ".live.0.n1.json"), 100);
    put_live(200, 'b'); /* too soon: left for a later pass */
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 0);
    assert_int_equal(size_of(R.profilesfd, ".live.0.n1.json"), 100);
    struct timespec ts = {.tv_sec = 1, .tv_nsec = 100000000};
    nanosleep(&ts, NULL);
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 0);
    assert_int_equal(size_of(R.profilesfd, ".live.0.n1.json"), 200);
    struct js_relay_refused ref;
    js_relay_refused(&R, &ref);
    assert_int_equal(ref.live_snapshots, 0);
    /* a large one waits longer: 3 MiB, 3 s after the previous copy (JS_LIVE_BYTES_PER_SECOND) */
    R.live_min_ns = 0;
    put_live(3 << 20, 'c');
    ts.tv_sec = 1;
    ts.tv_nsec = 500000000;
    nanosleep(&ts, NULL);
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 0);
    assert_int_equal(size_of(R.profilesfd, ".live.0.n1.json"), 200);
    ts.tv_sec = 2;
    ts.tv_nsec = 0;
    nanosleep(&ts, NULL);
    assert_int_equal(js_relay_pass(&R, 0, err, sizeof err), 0);
    assert_int_equal(size_of(R.profilesfd, ".live.0.n1.json"), 3 << 20);
}

/* mkdirat and a file of 10 bytes in it, n levels deep under dirfd; the deepest directory's fd */
static int deep_tree(int dirfd, int n)
{
    int fd = dup(dirfd);
    for (int i = 0; i < n; i++) {
        assert_int_equal(mkdirat(fd, "d", 0700), 0);
        int f = openat(fd, "f", O_WRONLY | O_CREAT, 0600);
        assert_true(f >= 0);
        assert_int_equal(write(f, "0123456789", 10), 10);
        close(f);
        int sub = openat(fd, "d", O_RDONLY | O_DIRECTORY);
        assert_true(sub >= 0);
        close(fd);
        fd = sub;
    }
    return fd;
}

static void the_jobs_record_area_goes_at_its_end_at_any_depth(void **state)
{
    (void)state;
    char area[512], p[700];
    struct js_removal rm;
    snprintf(area, sizeof area, "%s/area", top);
    assert_int_equal(mkdir(area, 0711), 0);
    snprintf(p, sizeof p, "%s/job.7", area);
    assert_int_equal(mkdir(p, 0700), 0);
    int jfd = open(p, O_RDONLY | O_DIRECTORY);
    close(openat(jfd, "0.n1.42.rec", O_WRONLY | O_CREAT, 0600));
    /* 3,000 levels (far beyond PATH_MAX as a path) with a file each, a link out at the bottom,
     * and a second branch of 40 beside it */
    int deep = deep_tree(jfd, 3000);
    assert_int_equal(symlinkat(top, deep, "away"), 0);
    close(deep);
    assert_int_equal(mkdirat(jfd, "wide", 0700), 0);
    int wide = openat(jfd, "wide", O_RDONLY | O_DIRECTORY);
    close(deep_tree(wide, 40));
    close(wide);
    close(jfd);
    time_t t0 = time(NULL);
    assert_int_equal(js_relay_remove_job(area, 7, &rm), 0);
    assert_true(time(NULL) - t0 < 20);
    assert_int_equal(rm.found, 1);
    assert_int_equal(rm.files, 1 + 3000 + 1 + 40); /* the record, the files, the link */
    assert_int_equal(rm.bytes, 10 * 3040 + (int64_t)strlen(top));
    assert_int_equal(rm.dirs, 3000 + 1 + 40);
    assert_int_equal(rm.records, 1);
    assert_int_equal(rm.left, 0);
    assert_false(exists(AT_FDCWD, p));
    assert_true(exists(AT_FDCWD, top)); /* the link was removed, not followed */
    assert_int_equal(js_relay_remove_job(area, 8, &rm), 0); /* none: nothing to do */
    assert_int_equal(rm.found, 0);
    /* a directory of another user's in it, not empty: not entered, and said */
    if (geteuid() == 0) {
        snprintf(p, sizeof p, "%s/job.9", area);
        assert_int_equal(mkdir(p, 0700), 0);
        jfd = open(p, O_RDONLY | O_DIRECTORY);
        close(deep_tree(jfd, 20));
        assert_int_equal(mkdirat(jfd, "theirs", 0700), 0);
        close(openat(jfd, "theirs/x", O_WRONLY | O_CREAT, 0600));
        assert_int_equal(fchownat(jfd, "theirs", 65534, 65534, 0), 0);
        close(jfd);
        assert_int_equal(js_relay_remove_job(area, 9, &rm), -1);
        assert_int_equal(rm.left, 1);
        assert_int_equal(rm.files, 20);
        assert_string_equal(rm.why, "theirs (1 deep): not the job user's, not entered");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(bundles_move_under_roots_names_and_leave_tombstones, setup, teardown),
        cmocka_unit_test_setup_teardown(the_share_is_enforced_and_what_it_refuses_counted, setup, teardown),
        cmocka_unit_test_setup_teardown(a_bundle_stopped_half_way_is_finished_once, setup, teardown),
        cmocka_unit_test_setup_teardown(only_the_users_own_regular_files_are_copied, setup, teardown),
        cmocka_unit_test_setup_teardown(the_live_snapshot_is_copied_when_it_changes_and_goes_at_the_end, setup, teardown),
        cmocka_unit_test_setup_teardown(the_live_snapshot_is_charged_to_the_share_and_replaces_its_predecessor, setup, teardown),
        cmocka_unit_test_setup_teardown(the_live_snapshot_is_copied_no_more_often_than_its_interval, setup, teardown),
        cmocka_unit_test_setup_teardown(the_jobs_record_area_goes_at_its_end_at_any_depth, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

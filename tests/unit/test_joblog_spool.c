/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of joblog's spool handling: the job directory and profiles/ with the right owner
 * and mode, no symbolic link followed, records written atomically, a previous job record merged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>

#include "joblog.h"
#include "record_format.h"

static char spool[256];

static int setup(void **state)
{
    (void)state;
    snprintf(spool, sizeof spool, "/tmp/js-test-spool.XXXXXX");
    if (mkdtemp(spool) == NULL)
        return -1;
    return chmod(spool, 0711);
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", spool);
    return system(cmd) == 0 ? 0 : -1;
}

static void job_dir_and_profiles_are_0700_of_root(void **state)
{
    (void)state;
    char err[256], path[512];
    struct stat st;
    int fd = joblog_spool_job_dir(spool, 17, 1, err, sizeof err);
    assert_true(fd >= 0);
    snprintf(path, sizeof path, "%s/job.17", spool);
    assert_int_equal(lstat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0700);
    snprintf(path, sizeof path, "%s/job.17/profiles", spool);
    assert_int_equal(lstat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0700);
    assert_int_equal(st.st_uid, getuid());
    close(fd);
    /* a second step of the job finds it there */
    fd = joblog_spool_job_dir(spool, 17, 1, err, sizeof err);
    assert_true(fd >= 0);
    close(fd);
}

/* The record area: the job's directory is the job user's, 0700, under a root-owned parent that
 * nobody else can write; one the user replaced by a link is refused. */
static void record_dir_is_the_job_users_under_a_root_parent(void **state)
{
    (void)state;
    char err[256], area[512], path[600];
    struct stat st;
    uid_t user = geteuid() == 0 ? 65534 : getuid();
    gid_t group = geteuid() == 0 ? 65534 : getgid();
    snprintf(area, sizeof area, "%s/records/n1", spool); /* its missing parent is made too */
    int fd = joblog_record_job_dir(area, 21, user, group, err, sizeof err);
    if (fd < 0)
        fail_msg("%s", err);
    assert_int_equal(lstat(area, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0711);
    snprintf(path, sizeof path, "%s/job.21", area);
    assert_int_equal(lstat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0700);
    assert_int_equal(st.st_uid, user);
    assert_int_equal(st.st_gid, group);
    close(fd);
    fd = joblog_record_job_dir(area, 21, user, group, err, sizeof err); /* the job's next step */
    assert_true(fd >= 0);
    close(fd);
    snprintf(path, sizeof path, "%s/job.22", area);
    assert_int_equal(symlink("/tmp", path), 0);
    assert_int_equal(joblog_record_job_dir(area, 22, user, group, err, sizeof err), -1);
    assert_non_null(strstr(err, "job.22: is a symbolic link; not followed"));
    assert_int_equal(chmod(area, 0777), 0);
    assert_int_equal(joblog_record_job_dir(area, 23, user, group, err, sizeof err), -1);
    assert_non_null(strstr(err, "not writable by group or others"));
    assert_int_equal(chmod(area, 0711), 0);
    /* a parent anybody may write (and no sticky bit) could be swapped: refused */
    snprintf(path, sizeof path, "%s/records", spool);
    assert_int_equal(chmod(path, 0777), 0);
    assert_int_equal(joblog_record_job_dir(area, 24, user, group, err, sizeof err), -1);
    assert_non_null(strstr(err, "records must be a directory owned by uid"));
    assert_int_equal(chmod(path, 01777), 0); /* sticky, as /dev/shm: fine */
    fd = joblog_record_job_dir(area, 24, user, group, err, sizeof err);
    if (fd < 0)
        fail_msg("%s", err);
    close(fd);
}

static void symbolic_links_are_never_followed(void **state)
{
    (void)state;
    char err[256], path[1024], target[512];
    snprintf(target, sizeof target, "%s/elsewhere", spool);
    assert_int_equal(mkdir(target, 0755), 0);
    snprintf(path, sizeof path, "%s/job.18", spool);
    assert_int_equal(symlink(target, path), 0);
    assert_int_equal(joblog_spool_job_dir(spool, 18, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "job.18: is a symbolic link; not followed"));

    int fd = joblog_spool_job_dir(spool, 19, 0, err, sizeof err);
    assert_true(fd >= 0);
    assert_int_equal(symlinkat(target, fd, "profiles"), 0);
    assert_int_equal(joblog_spool_job_dir(spool, 19, 1, err, sizeof err), -1);
    if (strstr(err, "job.19/profiles: is a symbolic link; not followed") == NULL)
        fail_msg("%s", err);
    /* a record name that is a link to elsewhere is replaced, not written through */
    snprintf(path, sizeof path, "%s/victim", target);
    assert_int_equal(symlinkat(path, fd, "job.json"), 0);
    json_t *rec = json_pack("{s:s}", "format", "x");
    assert_int_equal(joblog_write_record(fd, "job.json", rec, err, sizeof err), 0);
    json_decref(rec);
    struct stat st;
    assert_int_equal(lstat(path, &st), -1);
    assert_int_equal(fstatat(fd, "job.json", &st, AT_SYMLINK_NOFOLLOW), 0);
    assert_true(S_ISREG(st.st_mode));
    close(fd);
}

static void spool_writable_by_others_or_missing_is_refused(void **state)
{
    (void)state;
    char err[256], path[512];
    snprintf(path, sizeof path, "%s/open", spool);
    assert_int_equal(mkdir(path, 0777), 0);
    assert_int_equal(chmod(path, 0777), 0);
    assert_int_equal(joblog_spool_job_dir(path, 1, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "not writable by group or others"));
    snprintf(path, sizeof path, "%s/missing", spool);
    assert_int_equal(joblog_spool_job_dir(path, 1, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "No such file or directory"));
    assert_int_equal(joblog_spool_job_dir("relative", 1, 0, err, sizeof err), -1);
    assert_string_equal(err, "spool=relative: not an absolute path");
}

static void record_appears_whole_with_no_temporary_left(void **state)
{
    (void)state;
    char err[256];
    int fd = joblog_spool_job_dir(spool, 20, 0, err, sizeof err);
    assert_true(fd >= 0);
    json_t *rec = json_pack("{s:s,s:i}", "format", JS_STEP_RECORD_FORMAT, "version", 1);
    assert_int_equal(joblog_write_record(fd, "step.0.n1.json", rec, err, sizeof err), 0);
    json_decref(rec);
    int rfd = openat(fd, "step.0.n1.json", O_RDONLY);
    assert_true(rfd >= 0);
    json_error_t jerr;
    json_t *back = json_loadfd(rfd, 0, &jerr);
    close(rfd);
    assert_non_null(back);
    assert_int_equal(json_integer_value(json_object_get(back, "version")), 1);
    json_decref(back);
    struct stat st;
    assert_int_equal(fstatat(fd, "step.0.n1.json", &st, 0), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    int dfd = dup(fd);
    DIR *d = fdopendir(dfd);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' || strstr(e->d_name, ".tmp"))
            n++, assert_null(strstr(e->d_name, ".tmp"));
    closedir(d);
    assert_int_equal(n, 1);
    assert_int_equal(joblog_write_record(fd, "../escape.json", json_object(), err, sizeof err), -1);
    close(fd);
}

static void previous_job_record_lends_what_the_newer_lacks(void **state)
{
    (void)state;
    char err[256];
    int fd = joblog_spool_job_dir(spool, 21, 0, err, sizeof err);
    assert_true(fd >= 0);
    struct joblog_job job;
    joblog_job_init(&job);
    assert_int_equal(joblog_job_merge_previous(fd, &job, err, sizeof err), 0);
    job.job_id = 21;
    job.uid = job.gid = 0;
    joblog_set_string(&job.dependency, "afterok:20", NULL);
    joblog_set_string(&job.workflow, "wf", NULL);
    job.nodes = 2;
    job.cpus = 4;
    joblog_set_string(&job.node_list, "n[1-2]", NULL);
    json_t *rec = joblog_job_to_json(&job, 1);
    assert_int_equal(joblog_write_record(fd, JS_JOB_RECORD_NAME, rec, err, sizeof err), 0);
    json_decref(rec);
    joblog_job_free(&job);

    joblog_job_init(&job);
    assert_int_equal(joblog_job_merge_previous(fd, &job, err, sizeof err), 1);
    assert_string_equal(job.dependency, "afterok:20");
    assert_string_equal(job.workflow, "wf");
    /* a COMPLETING job's record leaves its shrinking counts out: the running job's are kept */
    assert_int_equal(job.nodes, 2);
    assert_int_equal(job.cpus, 4);
    assert_string_equal(job.node_list, "n[1-2]");
    joblog_job_free(&job);

    /* counts the newer record has are its own */
    joblog_job_init(&job);
    job.nodes = 1;
    assert_int_equal(joblog_job_merge_previous(fd, &job, err, sizeof err), 1);
    assert_int_equal(job.nodes, 1);
    joblog_job_free(&job);

    /* one that others could have written is not read */
    assert_int_equal(fchmodat(fd, JS_JOB_RECORD_NAME, 0666, 0), 0);
    joblog_job_init(&job);
    assert_int_equal(joblog_job_merge_previous(fd, &job, err, sizeof err), -1);
    assert_null(job.dependency);
    joblog_job_free(&job);
    close(fd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(job_dir_and_profiles_are_0700_of_root, setup, teardown),
        cmocka_unit_test_setup_teardown(record_dir_is_the_job_users_under_a_root_parent, setup, teardown),
        cmocka_unit_test_setup_teardown(symbolic_links_are_never_followed, setup, teardown),
        cmocka_unit_test_setup_teardown(spool_writable_by_others_or_missing_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(record_appears_whole_with_no_temporary_left, setup, teardown),
        cmocka_unit_test_setup_teardown(previous_job_record_lends_what_the_newer_lacks, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

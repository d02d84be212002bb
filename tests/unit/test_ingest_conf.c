/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of profile_ingest's configuration (profile_ingest/ingest_conf.c) and its
 * quarantine's retention. */
#include "config.h"

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

#include "ingest_conf.h"
#include "ingest_spool.h"

static void defaults_are_documented_values(void **state)
{
    (void)state;
    struct pi_conf c;
    pi_conf_defaults(&c);
    assert_string_equal(c.spool, "/var/spool/jobscreen");
    assert_int_equal(c.rescan_seconds, 30);
    assert_int_equal(c.max_profile_bytes, 64 << 20);
    assert_true(pi_conf_is_shared_fs(&c, "nfs4"));
    assert_true(pi_conf_is_shared_fs(&c, "lustre"));
    assert_false(pi_conf_is_shared_fs(&c, "ext4"));
    assert_null(c.archive);
    /* the quarantine lives outside the spool, and is emptied after 30 days */
    assert_non_null(strstr(c.quarantine, "/lib/jobscreen/quarantine"));
    assert_int_equal(c.quarantine_days, 30);
    pi_conf_free(&c);
}

/* A file quarantined more than quarantine_days ago goes, with its job directory once empty; a
 * recent one stays. */
static void old_quarantine_goes(void **state)
{
    (void)state;
    char q[] = "/tmp/js-test-quarantine.XXXXXX", path[256];
    assert_non_null(mkdtemp(q));
    snprintf(path, sizeof path, "%s/job.1", q);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/job.2", q);
    assert_int_equal(mkdir(path, 0700), 0);
    const char *files[] = {"job.1/0.n1.b1.json", "job.1/0.n1.b1.json.reason", "job.2/0.n1.b1.json"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", q, files[i]);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fclose(f);
        if (i < 2) { /* 31 days old */
            struct timespec old[2] = {{.tv_sec = time(NULL) - 31 * 86400}, {.tv_sec = time(NULL) - 31 * 86400}};
            assert_int_equal(utimensat(AT_FDCWD, path, old, 0), 0);
        }
    }
    assert_int_equal(pi_quarantine_expire(q, 0), 0);
    assert_int_equal(pi_quarantine_expire(q, 30), 2);
    struct stat sb;
    snprintf(path, sizeof path, "%s/job.1", q);
    assert_int_equal(stat(path, &sb), -1);
    snprintf(path, sizeof path, "%s/job.2/0.n1.b1.json", q);
    assert_int_equal(stat(path, &sb), 0);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", q);
    assert_int_equal(system(cmd), 0);
}

static void keys_are_checked_by_name_and_range(void **state)
{
    (void)state;
    struct pi_conf c;
    char err[256];
    pi_conf_defaults(&c);
    assert_int_equal(pi_conf_set(&c, "rescan_seconds", "5", err, sizeof err), 0);
    assert_int_equal(c.rescan_seconds, 5);
    assert_int_equal(pi_conf_set(&c, "rescan_seconds", "0", err, sizeof err), -1);
    assert_string_equal(err, "rescan_seconds: \"0\" is not a whole number from 1 to 86400");
    assert_int_equal(pi_conf_set(&c, "migrate", "maybe", err, sizeof err), -1);
    assert_string_equal(err, "migrate: \"maybe\" is not yes or no");
    assert_int_equal(pi_conf_set(&c, "spoool", "/x", err, sizeof err), -1);
    assert_string_equal(err, "unknown key \"spoool\"");
    assert_int_equal(pi_conf_set(&c, "shared_fs", "lustre, gpfs", err, sizeof err), 0);
    assert_true(pi_conf_is_shared_fs(&c, "gpfs"));
    assert_false(pi_conf_is_shared_fs(&c, "nfs4"));
    assert_int_equal(pi_conf_set(&c, "max_profile_bytes", "100", err, sizeof err), -1);
    assert_string_equal(err, "max_profile_bytes: \"100\" is not a size from 1024 to 67108864 bytes");
    /* the budgets of a pass (issue 13): 128 MiB a user, 512 MiB a pass, 0 no limit */
    assert_int_equal(c.user_budget_bytes, 128LL << 20);
    assert_int_equal(c.pass_budget_bytes, 512LL << 20);
    assert_int_equal(pi_conf_set(&c, "user_budget_bytes", "0", err, sizeof err), 0);
    assert_int_equal(c.user_budget_bytes, 0);
    assert_int_equal(pi_conf_set(&c, "pass_budget_bytes", "2147483648", err, sizeof err), 0);
    assert_int_equal(c.pass_budget_bytes, 2147483648LL);
    assert_int_equal(pi_conf_set(&c, "pass_budget_bytes", "4096", err, sizeof err), -1);
    assert_string_equal(err, "pass_budget_bytes: \"4096\" is not 0 (no limit) or a size from 1048576 to 2^50 bytes");
    /* record_uid: a uid or a user name known here */
    assert_int_equal(pi_conf_set(&c, "record_uid", "33", err, sizeof err), 0);
    assert_int_equal(c.record_uid, 33);
    assert_int_equal(pi_conf_set(&c, "record_uid", "root", err, sizeof err), 0);
    assert_int_equal(c.record_uid, 0);
    assert_int_equal(pi_conf_set(&c, "record_uid", "no-such-user-js", err, sizeof err), -1);
    assert_string_equal(err, "record_uid: \"no-such-user-js\" is neither a uid nor a user name known here");
    /* a db or spool may not be empty */
    assert_int_equal(pi_conf_set(&c, "db", "", err, sizeof err), -1);
    assert_string_equal(err, "db: must not be empty");
    pi_conf_free(&c);
}

static void files_report_the_line_of_an_error(void **state)
{
    (void)state;
    char path[] = "/tmp/test_ingest_conf.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text = "# comment\n spool = /var/spool/x \n\ndb=host=db1 dbname=js\nbogus = 1\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    struct pi_conf c;
    char err[512], want[600];
    pi_conf_defaults(&c);
    assert_int_equal(pi_conf_load(&c, path, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:5: unknown key \"bogus\"", path);
    assert_string_equal(err, want);
    assert_string_equal(c.spool, "/var/spool/x");
    assert_string_equal(c.db, "host=db1 dbname=js");
    unlink(path);
    pi_conf_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_are_documented_values),
        cmocka_unit_test(old_quarantine_goes),
        cmocka_unit_test(keys_are_checked_by_name_and_range),
        cmocka_unit_test(files_report_the_line_of_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

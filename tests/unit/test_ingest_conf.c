/* Unit tests of profile_ingest's configuration (profile_ingest/conf.c). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "conf.h"

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
    pi_conf_free(&c);
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
        cmocka_unit_test(keys_are_checked_by_name_and_range),
        cmocka_unit_test(files_report_the_line_of_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the receiver's store (transport/store.c): a job's record in the received spool
 * keeps what every record of the job captured, whatever their order, and when two receivers
 * store records of one job at the same moment. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "parcel.h"
#include "store.h"

/* the node's records (the plugin's: workflow and dependency) and the controller's (neither) */
static const char node_running[] = "{\"workflow\":\"sample\",\"dependency\":\"afterany:14\",\"state\":\"RUNNING\",\"final\":false}";
static const char node_final[] = "{\"workflow\":\"sample\",\"dependency\":\"afterany:14\",\"state\":\"COMPLETED\",\"final\":true}";
static const char ctld_final[] = "{\"workflow\":null,\"dependency\":null,\"state\":\"COMPLETED\",\"final\":true}";

/* record as job's parcel into the spool: 0, or -1 with the reason on stderr (no cmocka assert:
 * the children of the concurrent test call it) */
static int store_rc(int spoolfd, uint32_t job, const char *record)
{
    struct jt_buf b = { 0 };
    struct jt_parcel p;
    char reason[JT_REASON_MAX] = "";
    int rc = -1;
    if (jt_parcel_begin(&b, job) == 0 && jt_parcel_add(&b, "job.json", record, strlen(record)) == 0 &&
        jt_parcel_end(&b) == 0 && jt_parcel_parse(b.data, b.len, &p, reason, sizeof reason) == 0) {
        rc = jt_store(spoolfd, &p, reason, sizeof reason);
        jt_parcel_free(&p);
    }
    if (rc < 0)
        fprintf(stderr, "job %u: not stored: %s\n", job, reason);
    jt_buf_free(&b);
    return rc;
}

static void store(int spoolfd, uint32_t job, const char *record)
{
    assert_int_equal(store_rc(spoolfd, job, record), 0);
}

/* the stored record of job as "STATE WORKFLOW DEPENDENCY" */
static void stored(int spoolfd, uint32_t job, char *out, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "job.%u/job.json", job);
    int fd = openat(spoolfd, path, O_RDONLY);
    assert_true(fd >= 0);
    json_t *j = json_loadfd(fd, 0, NULL);
    close(fd);
    assert_non_null(j);
    const char *w = json_string_value(json_object_get(j, "workflow"));
    const char *d = json_string_value(json_object_get(j, "dependency"));
    snprintf(out, size, "%s %s %s", json_string_value(json_object_get(j, "state")), w ? w : "-", d ? d : "-");
    json_decref(j);
}

static int spool(char *dir)
{
    strcpy(dir, "/tmp/test_transport_store.XXXXXX");
    assert_non_null(mkdtemp(dir));
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    return fd;
}

static void remove_spool(const char *dir)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* The node's provisional record sent late, after the controller's final one: the final state
 * stays, and so does what the node's had captured. */
static void a_late_provisional_record_adds_what_it_captured(void **state)
{
    (void)state;
    char dir[64], got[256];
    int fd = spool(dir);
    store(fd, 7, ctld_final);
    store(fd, 7, node_running);
    stored(fd, 7, got, sizeof got);
    assert_string_equal(got, "COMPLETED sample afterany:14");
    /* and in the other order, the final's state with the provisional's captures */
    store(fd, 8, node_running);
    store(fd, 8, ctld_final);
    stored(fd, 8, got, sizeof got);
    assert_string_equal(got, "COMPLETED sample afterany:14");
    close(fd);
    remove_spool(dir);
}

/* Two receivers, each storing one of a job's two final records at the same moment, for many
 * jobs: every job keeps the node's workflow and dependency (without the lock, the record
 * renamed last won whole). */
static void records_stored_at_once_by_two_receivers_lose_nothing(void **state)
{
    (void)state;
    enum { JOBS = 48 };
    char dir[64], got[256];
    int fd = spool(dir);
    int go[2];
    assert_int_equal(pipe(go), 0);
    pid_t kids[2 * JOBS];
    for (int i = 0; i < 2 * JOBS; i++) {
        kids[i] = fork();
        assert_true(kids[i] >= 0);
        if (kids[i] == 0) {
            char c;
            close(go[1]);
            if (read(go[0], &c, 1) < 0) /* all start together: when the pipe closes */
                _exit(2);
            _exit(store_rc(fd, 100 + (uint32_t)(i / 2), i % 2 ? ctld_final : node_final) < 0);
        }
    }
    close(go[0]);
    close(go[1]);
    for (int i = 0; i < 2 * JOBS; i++) {
        int st;
        assert_int_equal(waitpid(kids[i], &st, 0), kids[i]);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    for (uint32_t j = 100; j < 100 + JOBS; j++) {
        stored(fd, j, got, sizeof got);
        assert_string_equal(got, "COMPLETED sample afterany:14");
    }
    close(fd);
    remove_spool(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_late_provisional_record_adds_what_it_captured),
        cmocka_unit_test(records_stored_at_once_by_two_receivers_lose_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

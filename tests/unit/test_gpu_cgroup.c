/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which processes are a step's by its cgroup (v2), the relay's test on a node whose Slurm runs
 * cgroup/v2 (gpu_procs.c: jsg_step_cgroup, jsg_in_cgroup), on real cgroups: the test makes a
 * tree like Slurm's under its own cgroup (job_1/step_0/slurm, job_1/step_0/user/task_0, and a
 * step_01 beside it), moves sleeping children into it, and asks. It needs root and a writable
 * cgroup2 mount; without them it is skipped (the test cluster's Slurm runs without cgroups). */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "gpu_procs.h"

static char mnt[512], self_cg[1100];

/* the cgroup2 mount (/sys/fs/cgroup, or .../unified on a hybrid host) */
static int find_mount(void)
{
    char dev[64], dir[512], type[64];
    FILE *f = fopen("/proc/self/mounts", "re");
    if (f == NULL)
        return -1;
    int found = -1;
    while (found < 0 && fscanf(f, "%63s %511s %63s %*[^\n]", dev, dir, type) == 3)
        if (strcmp(type, "cgroup2") == 0) {
            snprintf(mnt, sizeof mnt, "%s", dir);
            found = 0;
        }
    fclose(f);
    return found;
}

static pid_t sleeper_in(const char *cg)
{
    pid_t pid = fork();
    if (pid == 0) {
        pause();
        _exit(0);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s%s/cgroup.procs", mnt, cg);
    FILE *f = fopen(path, "we");
    int ok = f && fprintf(f, "%ld\n", (long)pid) > 0;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        return -1;
    }
    return pid;
}

static void cgroups_tell_a_steps_processes(void **state)
{
    (void)state;
    if (geteuid() != 0 || find_mount() != 0)
        skip();
    char cg[PATH_MAX];
    if (jsg_step_cgroup(getpid(), cg, sizeof cg) < 0)
        fail_msg("our own /proc/PID/cgroup is not readable");
    /* where we are now (the tree goes below it) */
    FILE *f = fopen("/proc/self/cgroup", "re");
    char line[1100];
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "0::", 3) == 0) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(self_cg, sizeof self_cg, "%s", strcmp(line + 3, "/") ? line + 3 : "");
        }
    if (f)
        fclose(f);
    char top[1200], d[6][1800];
    snprintf(top, sizeof top, "%s/jstest.%ld", self_cg, (long)getpid());
    const char *rel[6] = { "", "/job_1", "/job_1/step_0", "/job_1/step_0/slurm", "/job_1/step_0/user", "/job_1/step_01" };
    for (int i = 0; i < 6; i++) {
        snprintf(d[i], sizeof d[i], "%s%s%s", mnt, top, rel[i]);
        if (mkdir(d[i], 0755) != 0 && errno != EEXIST) {
            for (int k = i - 1; k >= 0; k--)
                rmdir(d[k]);
            skip(); /* a cgroup2 mount we may not write (a container's) */
        }
    }
    char step[1300], slurm[1400], user[1400], other[1400];
    snprintf(step, sizeof step, "%s/job_1/step_0", top);
    snprintf(slurm, sizeof slurm, "%s/slurm", step);
    snprintf(user, sizeof user, "%s/user", step);
    snprintf(other, sizeof other, "%s/job_1/step_01", top);
    pid_t stepd = sleeper_in(slurm), task = sleeper_in(user), neighbour = sleeper_in(other);
    pid_t gone = fork();
    if (gone == 0)
        _exit(0);
    waitpid(gone, NULL, 0);

    int ok_moved = stepd > 0 && task > 0 && neighbour > 0;
    char found[PATH_MAX] = "x";
    int r_stepd = ok_moved ? jsg_step_cgroup(stepd, found, sizeof found) : -9;
    int r_task = ok_moved ? jsg_in_cgroup(task, step) : -9;
    int r_stepd_in = ok_moved ? jsg_in_cgroup(stepd, step) : -9;
    int r_neighbour = ok_moved ? jsg_in_cgroup(neighbour, step) : -9;
    int r_self = jsg_in_cgroup(getpid(), step);
    int r_gone = jsg_in_cgroup(gone, step);
    char none[PATH_MAX] = "x";
    int r_self_step = ok_moved ? jsg_step_cgroup(task, none, sizeof none) : -9;

    pid_t kids[3] = { stepd, task, neighbour };
    for (int i = 0; i < 3; i++)
        if (kids[i] > 0) {
            kill(kids[i], SIGKILL);
            waitpid(kids[i], NULL, 0);
        }
    for (int i = 5; i >= 0; i--)
        rmdir(d[i]);

    if (!ok_moved)
        skip(); /* a host whose cgroups refuse the move (a container's delegation): not ours to test */
    assert_int_equal(r_stepd, 1);
    assert_string_equal(found, step);            /* .../step_0, its /slurm taken off */
    assert_int_equal(r_task, 1);                 /* a task below the step's cgroup */
    assert_int_equal(r_stepd_in, 1);
    assert_int_equal(r_neighbour, 0);            /* step_01 is not within step_0 */
    assert_int_equal(r_self, 0);
    assert_int_equal(r_gone, -1);
    assert_int_equal(r_self_step, 0);            /* .../step_0/user is no stepd's cgroup */
    assert_string_equal(none, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cgroups_tell_a_steps_processes),
    };
    return cmocka_run_group_tests_name("gpu_cgroup", tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * joblog: write the job record of a job from what Slurm still knows, into the jobscreen spool
 * (or to standard output).  For a job epilog (the job id comes from SLURM_JOB_ID) or to
 * backfill records.  See joblog(8).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/slurm.h>

#include "joblog.h"
#include "record_format.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: joblog [--spool DIR | --print] [--controller] [--workflow NAME] [--dependency DEP] [JOBID...]\n"
            "Write the jobscreen job record of each JOBID (default: $SLURM_JOB_ID) from what\n"
            "slurmctld still knows, into DIR/job.<JOBID>/job.json (atomically), or print it.\n"
            "  -s, --spool DIR        spool directory (default: $JOBSCREEN_SPOOL)\n"
            "  -p, --print            print the record on standard output instead\n"
            "  -c, --controller       as slurmctld's job completion script: only jobs no node's epilog\n"
            "                         records (never started, or ended by NODE_FAIL/BOOT_FAIL)\n"
            "  -w, --workflow NAME    workflow tag, when the record has none\n"
            "  -d, --dependency DEP   dependency string, when Slurm and the record have none\n"
            "  -h, --help             this text;  -V, --version  the version\n");
}

static int parse_job_id(const char *s, uint32_t *id)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end || v == 0 || v >= 0xfffffff0UL)
        return -1;
    *id = (uint32_t)v;
    return 0;
}

/* Whose record this is to write (docs/plugin.md, "joblog in an epilog"): the controller's
 * (--controller) only for a job no node's epilog records. */
static const char *not_ours(const struct joblog_job *job, int controller)
{
    if (controller)
        return (job->node_list == NULL || joblog_nodes_failed(job)) ? NULL : "its nodes' epilogs record it";
    return NULL;
}

static int one_job(uint32_t id, const char *spool, int print, int controller, const char *workflow,
                   const char *dependency)
{
    char err[512];
    int finished = 0, st = 0, dirfd = -1;
    struct joblog_job job;
    joblog_job_init(&job);
    job.source = "joblog";
    if (joblog_job_from_slurm(id, &job, &finished, err, sizeof err) < 0) {
        fprintf(stderr, "joblog: job %u: %s\n", id, err);
        joblog_job_free(&job);
        return 1;
    }
    /* decided before the job's directory is made: one left empty would wait for a record */
    const char *why = not_ours(&job, controller);
    if (why) {
        if (print)
            fprintf(stderr, "joblog: job %u: not written: %s\n", id, why);
        joblog_job_free(&job);
        return 0;
    }
    if (!print) {
        dirfd = joblog_spool_job_dir(spool, id, 0, err, sizeof err);
        if (dirfd < 0) {
            fprintf(stderr, "joblog: job %u: %s\n", id, err);
            joblog_job_free(&job);
            return 1;
        }
        /* keep what the plugin captured while the job was alive (dependency, workflow) */
        if (joblog_job_merge_previous(dirfd, &job, err, sizeof err) < 0)
            fprintf(stderr, "joblog: job %u: previous record ignored: %s\n", id, err);
    }
    if (job.workflow == NULL && workflow)
        joblog_set_string(&job.workflow, workflow, &job.truncated);
    if (job.dependency == NULL && dependency)
        joblog_set_string(&job.dependency, dependency, &job.truncated);
    joblog_fill_names(job.uid, job.gid, &job.user, &job.group);
    job.final = finished;
    json_t *rec = joblog_job_to_json(&job, joblog_now_ns());
    if (rec == NULL) {
        fprintf(stderr, "joblog: job %u: out of memory\n", id);
        st = 1;
    } else if (print) {
        if (json_dumpf(rec, stdout, JSON_INDENT(2) | JSON_SORT_KEYS) < 0 || fputc('\n', stdout) == EOF)
            st = 1;
    } else if (joblog_write_record(dirfd, JS_JOB_RECORD_NAME, rec, err, sizeof err) < 0) {
        fprintf(stderr, "joblog: job %u: %s/job.%u: %s\n", id, spool, id, err);
        st = 1;
    }
    json_decref(rec);
    if (dirfd >= 0)
        close(dirfd);
    joblog_job_free(&job);
    return st;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "spool", required_argument, NULL, 's' },   { "print", no_argument, NULL, 'p' },
        { "controller", no_argument, NULL, 'c' },
        { "workflow", required_argument, NULL, 'w' }, { "dependency", required_argument, NULL, 'd' },
        { "help", no_argument, NULL, 'h' },          { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    const char *spool = getenv("JOBSCREEN_SPOOL"), *workflow = NULL, *dependency = NULL;
    int print = 0, controller = 0, c;
    while ((c = getopt_long(argc, argv, "s:pcw:d:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 's': spool = optarg; break;
        case 'p': print = 1; break;
        case 'c': controller = 1; break;
        case 'w': workflow = optarg; break;
        case 'd': dependency = optarg; break;
        case 'h': usage(stdout); return 0;
        case 'V': printf("joblog (jobscreen) %s\n", PACKAGE_VERSION); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!print && (spool == NULL || spool[0] == '\0')) {
        fprintf(stderr, "joblog: no spool: give --spool DIR, set JOBSCREEN_SPOOL, or use --print\n");
        return 2;
    }
    /* the API's configuration and plugins (slurm.conf, SLURM_CONF) before its first call: 25.11
     * crashes in slurm_load_job without it; 22.05 set itself up lazily */
    slurm_init(NULL);
    int st = 0;
    uint32_t id;
    if (optind == argc) {
        const char *env = getenv("SLURM_JOB_ID");
        if (env == NULL || parse_job_id(env, &id) < 0) {
            fprintf(stderr, "joblog: no job id given and SLURM_JOB_ID is not a job id\n");
            return 2;
        }
        return one_job(id, spool, print, controller, workflow, dependency);
    }
    for (int i = optind; i < argc; i++) {
        if (parse_job_id(argv[i], &id) < 0) {
            fprintf(stderr, "joblog: %s: not a job id\n", argv[i]);
            st = 2;
            continue;
        }
        if (one_job(id, spool, print, controller, workflow, dependency))
            st = st ? st : 1;
    }
    return st;
}

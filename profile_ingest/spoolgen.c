/*
 * spoolgen: write a synthetic spool of finished jobs in the formats of common/record_format.h
 * and common/profile_format.h, for the ingest's robustness tests and benchmarks (not
 * installed).  Every value is a function of its position, so tests can assert exact sums:
 *   per profile and slice k (k = 0..SLICES-1): posix_write_calls 1, posix_write_bytes 1000 + k,
 *   cpu_ns 1000000; per profile FILES files written (/gen/<job>/<step>/<node>.<p>.<i>, ext4)
 *   and /gen/input read (nfs4).
 *
 *   spoolgen DIR FIRSTJOB JOBS STEPS NODES PROFILES SLICES FILES UID GID USER [STARTSLICE [KILLED]]
 *
 * Processes exit with status 0; with KILLED, the last KILLED profiles of each step on each
 * node are of processes killed by SIGKILL whose CPU time after the kill is missing (end
 * signal, signal 9, exit_code -1, missing "CPU time after the kill").
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "profile_format.h"
#include "record_format.h"

static void put(json_t *j, const char *dir, const char *name, uid_t uid, gid_t gid, mode_t mode)
{
    char tmp[4096], path[4096];
    snprintf(tmp, sizeof tmp, "%s/.%s.tmp", dir, name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (json_dump_file(j, tmp, JSON_COMPACT) < 0 || chown(tmp, uid, gid) < 0 || chmod(tmp, mode) < 0 || rename(tmp, path) < 0) {
        fprintf(stderr, "spoolgen: %s: %s\n", path, strerror(errno));
        exit(1);
    }
    json_decref(j);
}

static void mkdir_owned(const char *path, uid_t uid, gid_t gid, mode_t mode)
{
    if ((mkdir(path, mode) < 0 && errno != EEXIST) || chown(path, uid, gid) < 0 || chmod(path, mode) < 0) {
        fprintf(stderr, "spoolgen: %s: %s\n", path, strerror(errno));
        exit(1);
    }
}

int main(int argc, char **argv)
{
    if (argc < 12) {
        fprintf(stderr, "usage: spoolgen DIR FIRSTJOB JOBS STEPS NODES PROFILES SLICES FILES UID GID USER [STARTSLICE [KILLED]]\n");
        return 2;
    }
    const char *dir = argv[1];
    long first = atol(argv[2]), jobs = atol(argv[3]), steps = atol(argv[4]), nodes = atol(argv[5]);
    long profiles = atol(argv[6]), slices = atol(argv[7]), files = atol(argv[8]);
    uid_t uid = (uid_t)atol(argv[9]);
    gid_t gid = (gid_t)atol(argv[10]);
    const char *user = argv[11];
    const int64_t L = 4;
    int64_t s0 = argc > 12 && *argv[12] ? atoll(argv[12]) : (int64_t)time(NULL) / L - slices - 10;
    long killed = argc > 13 ? atol(argv[13]) : 0;
    const int64_t NS = 1000000000LL;
    int64_t t0 = s0 * L * NS, t1 = (s0 + slices) * L * NS - 1;

    json_t *names = json_array();
    for (int m = 0; m < JS_SLICE_COLS; m++)
        json_array_append_new(names, json_string(js_profile_slice_cols[m].name));
    for (long j = 0; j < jobs; j++) {
        long id = first + j;
        char jd[4096], pd[4200], node[64], name[256];
        snprintf(jd, sizeof jd, "%s/job.%ld", dir, id);
        mkdir_owned(jd, 0, 0, 0711);
        snprintf(pd, sizeof pd, "%s/profiles", jd);
        mkdir_owned(pd, uid, gid, 0700);
        for (long s = 0; s < steps; s++) {
            for (long n = 0; n < nodes; n++) {
                snprintf(node, sizeof node, "gen%ld", n + 1);
                for (long p = 0; p < profiles; p++) {
                    json_t *tot = json_object(), *rows = json_array(), *fl = json_array();
                    for (int m = 0; m < JS_M_COUNT; m++)
                        json_object_set_new(tot, js_profile_metrics[m].name, json_integer(0));
                    int64_t wb = 0;
                    for (long k = 0; k < slices; k++) {
                        json_t *row = json_array();
                        json_array_append_new(row, json_integer(s0 + k));
                        for (int m = 0; m < JS_SLICE_COLS; m++) { /* the kernel's: the writes, and kernel_io's read in the first */
                            int64_t v = m == JS_M_POSIX_WRITE_CALLS ? 1 : m == JS_M_POSIX_WRITE_BYTES ? 1000 + k : m == JS_M_CPU_NS ? 1000000 : 0;
                            if (m >= JS_M_COUNT)
                                v = m == JS_M_COUNT + JS_KIO_WCHAR ? 1000 + k : m == JS_M_COUNT + JS_KIO_SYSCW ? 1 :
                                    k == 0 && m == JS_M_COUNT + JS_KIO_RCHAR ? 10 : k == 0 && m == JS_M_COUNT + JS_KIO_SYSCR ? 1 : 0;
                            json_array_append_new(row, json_integer(v));
                        }
                        wb += 1000 + k;
                        json_array_append_new(rows, row);
                    }
                    json_object_set_new(tot, "posix_write_calls", json_integer(slices));
                    json_object_set_new(tot, "posix_write_bytes", json_integer(wb));
                    json_object_set_new(tot, "cpu_ns", json_integer(slices * 1000000));
                    for (long f = 0; f <= files; f++) {
                        char path[512];
                        if (f == files)
                            snprintf(path, sizeof path, "/gen/input");
                        else
                            snprintf(path, sizeof path, "/gen/%ld/%ld/%s.%ld.%ld", id, s, node, p, f);
                        json_array_append_new(fl, json_pack("{s:s,s:s,s:s,s:i,s:i,s:s,s:s,s:s,s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:I,s:I}",
                            "path", path, "opened_as", "", "layer", "posix", "dev", 1, "ino", 1, "mount", "/",
                            "fstype", f == files ? "nfs4" : "ext4", "open_mode", f == files ? "r" : "w",
                            "used_mode", f == files ? "r" : "w", "opens", 1, "read_calls", f == files, "read_bytes", f == files ? 10 : 0,
                            "write_calls", f != files, "write_bytes", f == files ? 0 : 100, "lower_read_bytes", 0,
                            "lower_write_bytes", 0, "mapped_bytes", 0, "first_open_ns", (json_int_t)(t0 + NS), "last_close_ns", (json_int_t)(t0 + 2 * NS)));
                    }
                    json_t *prof = json_pack("{s:s,s:i,s:s,s:I,s:s,s:s,s:I,s:s,s:I,s:i,s:I,s:s,s:s,s:s,s:s,s:I,s:I,s:I,s:i,s:i,s:i,s:i,s:I,s:I,s:i,s:i}",
                        "format", JS_PROFILE_FORMAT_NAME, "version", JS_PROFILE_VERSION, "cluster", "gen", "job_id", (json_int_t)id,
                        "step", "", "node", node, "task_id", (json_int_t)p, "hostname", node, "pid", (json_int_t)(1000 + p), "ppid", 1,
                        "uid", (json_int_t)uid, "origin", "start", "end", "exit", "exe", "/gen/app", "args", "app",
                        "slice_seconds", (json_int_t)L, "start_ns", (json_int_t)t0, "end_ns", (json_int_t)t1,
                        "mpi_rank", -1, "mpi_size", -1, "threads_peak", 1, "threads_seen", 1,
                        "wall_ns", (json_int_t)(t1 - t0), "cpu_user_ns", (json_int_t)(slices * 1000000), "cpu_sys_ns", 0, "max_rss_kib", 1024);
                    char sname[32];
                    snprintf(sname, sizeof sname, "%ld", s);
                    json_object_set_new(prof, "step", json_string(sname));
                    json_object_set_new(prof, "runtime", json_pack("{s:i,s:i,s:i,s:i,s:i,s:i,s:I,s:i,s:I}", "io_posix_ns", 0, "io_stdio_ns", 0,
                        "io_mpiio_ns", 0, "mpi_p2p_ns", 0, "mpi_coll_ns", 0, "mpi_setup_ns", 0,
                        "compute_ns", (json_int_t)(slices * 1000000), "cpu_wait_ns", 0,
                        "idle_ns", (json_int_t)(t1 - t0 > slices * 1000000 ? t1 - t0 - slices * 1000000 : 0)));
                    json_object_set_new(prof, "kernel_io", json_pack("{s:i,s:I,s:i,s:I,s:i,s:i}", "rchar", 10,
                        "wchar", (json_int_t)wb, "syscr", 1, "syscw", (json_int_t)slices, "read_bytes", 0, "write_bytes", 0));
                    json_object_set_new(prof, "totals", tot);
                    json_object_set_new(prof, "mpi_collectives", json_object());
                    json_object_set(prof, "slice_metrics", names);
                    json_object_set_new(prof, "slices", rows);
                    json_object_set_new(prof, "slices_truncated", json_false());
                    json_object_set_new(prof, "files", fl);
                    json_object_set_new(prof, "files_dropped", json_integer(0));
                    json_object_set_new(prof, "trees", json_array());
                    json_object_set_new(prof, "renames", json_array());
                    json_object_set_new(prof, "renames_dropped", json_integer(0));
                    int kill = p >= profiles - killed;
                    json_object_set_new(prof, "end", json_string(kill ? "signal" : "exit"));
                    json_object_set_new(prof, "exit_code", json_integer(kill ? -1 : 0));
                    json_object_set_new(prof, "signal", json_integer(kill ? 9 : 0));
                    json_object_set_new(prof, "missing", json_string(kill ? "CPU time after the kill" : ""));
                    snprintf(name, sizeof name, "%ld.%s.%ld.json", s, node, 1000 + p);
                    put(prof, pd, name, uid, gid, 0600);
                }
                json_t *rec = json_pack("{s:s,s:i,s:s,s:I,s:s,s:I,s:n,s:n,s:s,s:I,s:I,s:s,s:i,s:I,s:I,s:I,s:s,s:I,s:I,s:I,s:s,s:[s],s:s,s:i,s:i,s:s}",
                    "format", JS_STEP_RECORD_FORMAT, "version", JS_RECORD_VERSION, "cluster", "gen", "job_id", (json_int_t)id,
                    "step", "", "step_id", (json_int_t)s, "array_job_id", "array_task_id", "node", node,
                    "node_index", (json_int_t)n, "nodes", (json_int_t)nodes, "node_list", "gen[1-n]", "cpus", 1,
                    "tasks", (json_int_t)(profiles * nodes), "local_tasks", (json_int_t)profiles, "uid", (json_int_t)uid, "user", user,
                    "start_ns", (json_int_t)t0, "end_ns", (json_int_t)t1, "elapsed_ns", (json_int_t)(t1 - t0), "executable", "/gen/app",
                    "argv", "/gen/app", "work_dir", "/gen", "exit_code", 0, "signal", 0, "state", "COMPLETED");
                char sname[32];
                snprintf(sname, sizeof sname, "%ld", s);
                json_object_set_new(rec, "step", json_string(sname));
                json_object_set_new(rec, "gid", json_integer(gid));
                json_object_set_new(rec, "task_list", json_array());
                json_object_set_new(rec, "profiled", json_true());
                json_object_set_new(rec, "profile_reason", json_string("on"));
                json_object_set_new(rec, "profiler", json_string("/gen/profiler.so"));
                json_object_set_new(rec, "profiler_version", json_string("0"));
                json_object_set_new(rec, "slice_seconds", json_integer(L));
                json_object_set_new(rec, "workflow", json_null());
                json_object_set_new(rec, "source", json_string("plugin"));
                json_object_set_new(rec, "writer_version", json_string("0"));
                json_object_set_new(rec, "written_ns", json_integer(t1));
                json_object_set_new(rec, "truncated", json_false());
                if (s == steps - 1 && n == nodes - 1) {
                    /* the job record last, as at a job's end (its final record follows the steps) */
                    json_t *job = json_pack("{s:s,s:i,s:s,s:I,s:n,s:n,s:s,s:s,s:I,s:s,s:I,s:n,s:s,s:n,s:I,s:I,s:I,s:I,s:I,s:s,s:I,s:I}",
                        "format", JS_JOB_RECORD_FORMAT, "version", JS_RECORD_VERSION, "cluster", "gen", "job_id", (json_int_t)id,
                        "array_job_id", "array_task_id", "name", "gen", "user", user, "uid", (json_int_t)uid, "group", user,
                        "gid", (json_int_t)gid, "account", "partition", "debug", "qos", "submit_ns", (json_int_t)t0,
                        "eligible_ns", (json_int_t)t0, "start_ns", (json_int_t)t0, "end_ns", (json_int_t)t1, "nodes", (json_int_t)nodes,
                        "node_list", "gen[1-n]", "cpus", (json_int_t)nodes, "tasks", (json_int_t)(profiles * nodes));
                    json_object_set_new(job, "dependency", json_null());
                    json_object_set_new(job, "dependencies", json_array());
                    json_object_set_new(job, "dependency_any", json_false());
                    json_object_set_new(job, "dependency_parse_error", json_false());
                    json_object_set_new(job, "exit_code", json_integer(0));
                    json_object_set_new(job, "signal", json_integer(0));
                    json_object_set_new(job, "state", json_string("COMPLETED"));
                    json_object_set_new(job, "final", json_true());
                    json_object_set_new(job, "workflow", json_null());
                    json_object_set_new(job, "work_dir", json_string("/gen"));
                    json_object_set_new(job, "batch_script", json_null());
                    json_object_set_new(job, "batch", json_true());
                    json_object_set_new(job, "source", json_string("plugin"));
                    json_object_set_new(job, "writer_version", json_string("0"));
                    json_object_set_new(job, "written_ns", json_integer(t1));
                    json_object_set_new(job, "truncated", json_false());
                    snprintf(name, sizeof name, "step.%ld.%s.json", s, node);
                    put(rec, jd, name, 0, 0, 0644);
                    put(job, jd, "job.json", 0, 0, 0644);
                    continue;
                }
                snprintf(name, sizeof name, "step.%ld.%s.json", s, node);
                put(rec, jd, name, 0, 0, 0644);
            }
        }
    }
    json_decref(names);
    return 0;
}

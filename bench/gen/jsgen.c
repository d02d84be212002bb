/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jsgen: write a synthetic spool (see gen.h); prints a summary as "name: value". */
#include "config.h"

#include "gen.h"
#include "profile_format.h"
#include "kvconf.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
        "usage: jsgen --out DIR [options]            a synthetic cluster\n"
        "       jsgen --uniform --out DIR [options]  uniform jobs, every value a function of its position\n"
        "Writes jobs as a real spool (docs/spool.md) for profile_ingest (docs/benchmarks.md, \"jsgen\").\n"
        "  -o, --out DIR          spool directory (made if missing)\n"
        "  -n, --nodes N          nodes of the cluster (default 100); uniform: of each job (default 1)\n"
        "  -p, --ppn P            processes (profiles) per node of a numbered step (default 1)\n"
        "      --uid UID          every job belongs to UID (default: 30000 + user)\n"
        "      --uid-base B       first uid of the synthetic users (default 30000)\n"
        "      --gid GID          the jobs' group (default: the uid)\n"
        "      --user NAME        the jobs' user name (default: synth000, synth001, ... by user)\n"
        "      --no-chown         do not chown profiles to the job's uid (default: chown when root)\n"
        "      --bundle[=V]       profiles in bundles per step-node in a profiles/ of root's, as the\n"
        "                         plugin's relay leaves them (default: one file each, the user's);\n"
        "                         V: the bundle version, 2 or 3 (default 3: the processes as columns)\n"
        "      --start EPOCH      start in epoch seconds, rounded down to a slice (default 1800000000;\n"
        "                         uniform: the last SLICES + 10 slices before now)\n"
        "      --slice L          slice length in seconds (default 4)\n"
        "      --job-id-base ID   first job id (default 1000)\n"
        "      --cluster NAME     cluster name (default synth; uniform gen)\n"
        "      --node-prefix P    node names P00000, P00001, ... (default node); uniform P1, P2, ... (default gen)\n"
        "A cluster:\n"
        "  -H, --hours H          length of the simulated period (default 1)\n"
        "  -s, --seed S           random seed (default 1); same parameters, same files\n"
        "  -j, --max-jobs N       stop after N jobs (default: fill the period)\n"
        "  -d, --duration-scale X multiply job durations by X (e.g. 0.1 for many short jobs)\n"
        "  -u, --users U          distinct users (default 50)\n"
        "      --big-array N      first, a workflow (tag bigarray) of an N-task job array and its gather job\n"
        "      --shared-files     a step's processes share their files (N-1): no scratch file of each in /tmp,\n"
        "                         one checkpoint a step (default: each process its own, N-N)\n"
        "Uniform (gen.h: per process and slice k one POSIX write of 1000 + k bytes and CPU time):\n"
        "      --jobs N           jobs (default 1), ids from --job-id-base\n"
        "      --steps N          numbered steps of each job (default 1)\n"
        "      --slices N         slices of each process (default 1)\n"
        "      --files N          files each process writes, besides reading /gen/input (default 0, at most %d)\n"
        "      --killed K         the last K processes of each step-node were killed by SIGKILL\n"
        "      --spread           each job on one node, job i on node i mod NODES\n"
        "      --exe PATH         the processes' executable (default /gen/app)\n"
        "      --cpu-ns NS        CPU time of a process in a slice (default 1000000)\n"
        "      --slow NODE=X      processes on NODE use X times the CPU time (repeatable)\n",
        JSGEN_MAX_FILES);
}

enum {
    O_UID = 256, O_UIDBASE, O_GID, O_USER, O_NOCHOWN, O_BUNDLE, O_START, O_SLICE, O_BASE, O_CLUSTER, O_PREFIX, O_BIG, O_SHARED,
    O_UNIFORM, O_JOBS, O_STEPS, O_SLICES, O_FILES, O_KILLED, O_SPREAD, O_EXE, O_SLOW, O_CPU
};
static const struct option opts[] = {
    { "out", required_argument, 0, 'o' }, { "nodes", required_argument, 0, 'n' },
    { "hours", required_argument, 0, 'H' }, { "ppn", required_argument, 0, 'p' },
    { "seed", required_argument, 0, 's' }, { "max-jobs", required_argument, 0, 'j' },
    { "duration-scale", required_argument, 0, 'd' }, { "users", required_argument, 0, 'u' },
    { "uid", required_argument, 0, O_UID }, { "uid-base", required_argument, 0, O_UIDBASE },
    { "gid", required_argument, 0, O_GID }, { "user", required_argument, 0, O_USER },
    { "no-chown", no_argument, 0, O_NOCHOWN }, { "bundle", optional_argument, 0, O_BUNDLE },
    { "start", required_argument, 0, O_START },
    { "slice", required_argument, 0, O_SLICE }, { "job-id-base", required_argument, 0, O_BASE },
    { "cluster", required_argument, 0, O_CLUSTER }, { "node-prefix", required_argument, 0, O_PREFIX },
    { "big-array", required_argument, 0, O_BIG },
    { "shared-files", no_argument, 0, O_SHARED },
    { "uniform", no_argument, 0, O_UNIFORM }, { "jobs", required_argument, 0, O_JOBS },
    { "steps", required_argument, 0, O_STEPS }, { "slices", required_argument, 0, O_SLICES },
    { "files", required_argument, 0, O_FILES }, { "killed", required_argument, 0, O_KILLED },
    { "spread", no_argument, 0, O_SPREAD }, { "exe", required_argument, 0, O_EXE },
    { "slow", required_argument, 0, O_SLOW }, { "cpu-ns", required_argument, 0, O_CPU },
    { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
};
static const char shortopts[] = "o:n:H:p:s:j:d:u:h";

/* A count: a whole number in range (the one rule of common/kvconf.h), or the usage. */
static unsigned count_arg(const char *s, const char *what)
{
    long long v;
    if (js_kv_int(s, 0, 100000000, &v) < 0) {
        fprintf(stderr, "jsgen: %s: not a count: %s\n", what, s);
        exit(2);
    }
    return (unsigned)v;
}

int main(int argc, char **argv)
{
    /* the shape first: its defaults are what the other options change */
    enum jsgen_shape shape = JSGEN_CLUSTER;
    int o;
    opterr = 0;
    while ((o = getopt_long(argc, argv, shortopts, opts, NULL)) != -1)
        if (o == O_UNIFORM)
            shape = JSGEN_UNIFORM;
    opterr = 1;
    optind = 0; /* glibc: start over */

    struct jsgen_params p;
    jsgen_defaults(&p, shape);
    int have_out = 0, cluster_only = 0, uniform_only = 0;
    while ((o = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
        switch (o) {
        case 'o': p.out = optarg; have_out = 1; break;
        case 'n': p.nodes = count_arg(optarg, "--nodes"); break;
        case 'H': p.hours = strtod(optarg, NULL); cluster_only = 1; break;
        case 'p': p.ppn = count_arg(optarg, "--ppn"); break;
        case 's': p.seed = strtoull(optarg, NULL, 10); cluster_only = 1; break;
        case 'j': p.max_jobs = count_arg(optarg, "--max-jobs"); cluster_only = 1; break;
        case 'd': p.duration_scale = strtod(optarg, NULL); cluster_only = 1; break;
        case 'u': p.users = count_arg(optarg, "--users"); cluster_only = 1; break;
        case O_UID: p.uid = strtol(optarg, NULL, 10); break;
        case O_UIDBASE: p.uid_base = strtol(optarg, NULL, 10); break;
        case O_GID: p.gid = strtol(optarg, NULL, 10); break;
        case O_USER: p.user = optarg; break;
        case O_NOCHOWN: p.chown_profiles = 0; break;
        case O_BUNDLE:
            p.bundle = optarg ? atoi(optarg) : 1;
            if (p.bundle < 1 || p.bundle > JS_PROFILE_BUNDLE_VERSION) {
                usage(stderr);
                return 2;
            }
            break;
        case O_START: p.start_s = strtoll(optarg, NULL, 10); break;
        case O_SLICE: p.slice_s = count_arg(optarg, "--slice"); break;
        case O_BASE: p.job_id_base = (uint32_t)strtoul(optarg, NULL, 10); break;
        case O_CLUSTER: p.cluster = optarg; break;
        case O_PREFIX: p.node_prefix = optarg; break;
        case O_BIG: p.big_array = count_arg(optarg, "--big-array"); cluster_only = 1; break;
        case O_SHARED: p.shared_files = 1; cluster_only = 1; break;
        case O_UNIFORM: break;
        case O_JOBS: p.jobs = count_arg(optarg, "--jobs"); uniform_only = 1; break;
        case O_STEPS: p.steps = count_arg(optarg, "--steps"); uniform_only = 1; break;
        case O_SLICES: p.slices = count_arg(optarg, "--slices"); uniform_only = 1; break;
        case O_FILES: p.files = count_arg(optarg, "--files"); uniform_only = 1; break;
        case O_KILLED: p.killed = count_arg(optarg, "--killed"); uniform_only = 1; break;
        case O_SPREAD: p.spread = 1; uniform_only = 1; break;
        case O_EXE: p.exe = optarg; uniform_only = 1; break;
        case O_CPU: p.cpu_ns = strtoull(optarg, NULL, 10); uniform_only = 1; break;
        case O_SLOW: {
            char *eq = strrchr(optarg, '=');
            char *end = NULL;
            double x = eq ? strtod(eq + 1, &end) : 0;
            if (!eq || eq == optarg || !end || *end || !(x > 0) || p.nslow == JSGEN_MAX_SLOW) {
                fprintf(stderr, "jsgen: --slow NODE=FACTOR (a positive factor, at most %d nodes): %s\n", JSGEN_MAX_SLOW, optarg);
                return 2;
            }
            *eq = '\0';
            p.slow[p.nslow].node = optarg;
            p.slow[p.nslow++].factor = x;
            uniform_only = 1;
            break;
        }
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!have_out || optind < argc || p.duration_scale <= 0) {
        usage(stderr);
        return 2;
    }
    if (shape == JSGEN_UNIFORM ? cluster_only : uniform_only) {
        fprintf(stderr, "jsgen: an option of the %s shape %s (jsgen --help)\n", shape == JSGEN_UNIFORM ? "cluster" : "uniform",
                shape == JSGEN_UNIFORM ? "with --uniform" : "without --uniform");
        return 2;
    }
    struct jsgen_summary s;
    if (jsgen_run(&p, &s) < 0)
        return 1;
    jsgen_print_summary(stdout, &p, &s);
    return 0;
}

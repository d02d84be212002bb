/* jsgen: write a synthetic cluster's spool (see gen.h); prints a summary as "name: value". */
#include "config.h"

#include "gen.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
        "usage: jsgen --out DIR [options]\n"
        "Writes a synthetic cluster's jobs as a real spool (docs/spool.md) for profile_ingest.\n"
        "  -o, --out DIR          spool directory (made if missing)\n"
        "  -n, --nodes N          nodes of the cluster (default 100)\n"
        "  -H, --hours H          length of the simulated period (default 1)\n"
        "  -p, --ppn P            processes (profiles) per node of a parallel step (default 1)\n"
        "  -s, --seed S           random seed (default 1); same parameters, same files\n"
        "  -j, --max-jobs N       stop after N jobs (default: fill the period)\n"
        "  -d, --duration-scale X multiply job durations by X (e.g. 0.1 for many short jobs)\n"
        "  -u, --users U          distinct users (default 50)\n"
        "      --uid UID          every job belongs to UID (default: 30000 + user)\n"
        "      --uid-base B       first uid of the synthetic users (default 30000)\n"
        "      --no-chown         do not chown profiles to the job's uid (default: chown when root)\n"
        "      --start EPOCH      period start in epoch seconds (default 1800000000)\n"
        "      --slice L          slice length in seconds (default 4)\n"
        "      --job-id-base ID   first job id (default 1000)\n"
        "      --cluster NAME     cluster name (default synth)\n"
        "      --node-prefix P    node names P00000, P00001, ... (default node)\n"
        "      --big-array N      first, a workflow (tag bigarray) of an N-task job array and its gather job\n");
}

int main(int argc, char **argv)
{
    struct jsgen_params p;
    jsgen_defaults(&p);
    enum { O_UID = 256, O_UIDBASE, O_NOCHOWN, O_START, O_SLICE, O_BASE, O_CLUSTER, O_PREFIX, O_BIG };
    static const struct option opts[] = {
        { "out", required_argument, 0, 'o' }, { "nodes", required_argument, 0, 'n' },
        { "hours", required_argument, 0, 'H' }, { "ppn", required_argument, 0, 'p' },
        { "seed", required_argument, 0, 's' }, { "max-jobs", required_argument, 0, 'j' },
        { "duration-scale", required_argument, 0, 'd' }, { "users", required_argument, 0, 'u' },
        { "uid", required_argument, 0, O_UID }, { "uid-base", required_argument, 0, O_UIDBASE },
        { "no-chown", no_argument, 0, O_NOCHOWN }, { "start", required_argument, 0, O_START },
        { "slice", required_argument, 0, O_SLICE }, { "job-id-base", required_argument, 0, O_BASE },
        { "cluster", required_argument, 0, O_CLUSTER }, { "node-prefix", required_argument, 0, O_PREFIX },
        { "big-array", required_argument, 0, O_BIG },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
    };
    int o, have_out = 0;
    while ((o = getopt_long(argc, argv, "o:n:H:p:s:j:d:u:h", opts, NULL)) != -1) {
        switch (o) {
        case 'o': p.out = optarg; have_out = 1; break;
        case 'n': p.nodes = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'H': p.hours = strtod(optarg, NULL); break;
        case 'p': p.ppn = (unsigned)strtoul(optarg, NULL, 10); break;
        case 's': p.seed = strtoull(optarg, NULL, 10); break;
        case 'j': p.max_jobs = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'd': p.duration_scale = strtod(optarg, NULL); break;
        case 'u': p.users = (unsigned)strtoul(optarg, NULL, 10); break;
        case O_UID: p.uid = strtol(optarg, NULL, 10); break;
        case O_UIDBASE: p.uid_base = strtol(optarg, NULL, 10); break;
        case O_NOCHOWN: p.chown_profiles = 0; break;
        case O_START: p.start_s = strtoll(optarg, NULL, 10); break;
        case O_SLICE: p.slice_s = (unsigned)strtoul(optarg, NULL, 10); break;
        case O_BASE: p.job_id_base = (uint32_t)strtoul(optarg, NULL, 10); break;
        case O_CLUSTER: p.cluster = optarg; break;
        case O_PREFIX: p.node_prefix = optarg; break;
        case O_BIG: p.big_array = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!have_out || optind < argc || p.duration_scale <= 0) {
        usage(stderr);
        return 2;
    }
    struct jsgen_summary s;
    if (jsgen_run(&p, &s) < 0)
        return 1;
    jsgen_print_summary(stdout, &p, &s);
    return 0;
}

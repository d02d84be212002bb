/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen-gpu-sample: the node side's GPU and CPU-energy sampler on its own, for an admin
 * checking a node and for the real-GPU check (bench/gpu/device-check). Samples every
 * --interval ms for --duration s and prints JSON lines: the node, each sample, each slice,
 * and the sampler's own CPU time (docs/gpu.md, "The standalone sampler").
 */
#include "config.h"

#include "gpu_json.h"
#include "jsgpu.h"
#include "slice.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

struct opts {
    long interval_ms, duration_s, slice_s, timeout_ms;
    const char *nvml, *powercap, *gpus;
    int step_env, slices_only;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
    (void)sig;
    stop = 1;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: jobscreen-gpu-sample [--interval MS] [--duration S] [--slice S]\n"
            "         [--nvml LIBRARY] [--powercap DIR] [--gpus LIST | --step-env]\n"
            "         [--timeout MS] [--slices-only]\n"
            "Samples the node's GPUs (NVML) and CPU energy (powercap) and prints JSON lines.\n"
            "  --interval MS  between samples (default 1000, 50 to 60000)\n"
            "  --duration S   how long (default 10; 0: until SIGINT or SIGTERM)\n"
            "  --slice S      slice length, as the plugin's slice= (default 4)\n"
            "  --nvml LIB     the NVML library (default %s)\n"
            "  --powercap DIR the powercap root (default %s)\n"
            "  --gpus LIST    only these GPUs: indexes or UUIDs, comma-separated (default all)\n"
            "  --step-env     the GPUs a step with this environment has (SLURM_STEP_GPUS, ...)\n"
            "  --timeout MS   the longest NVML may take to answer (default 2000)\n"
            "  --slices-only  no sample lines\n",
            JSG_DEFAULT_LIBRARY, JSG_DEFAULT_POWERCAP);
}

static int number(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse(int argc, char **argv, struct opts *o)
{
    static const struct option longs[] = {
        {"interval", required_argument, NULL, 'i'}, {"duration", required_argument, NULL, 'd'},
        {"slice", required_argument, NULL, 's'},    {"nvml", required_argument, NULL, 'n'},
        {"powercap", required_argument, NULL, 'p'}, {"gpus", required_argument, NULL, 'g'},
        {"step-env", no_argument, NULL, 'e'},       {"timeout", required_argument, NULL, 't'},
        {"slices-only", no_argument, NULL, 'S'},    {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    *o = (struct opts){1000, 10, JS_SLICE_DEFAULT_SECONDS, 2000, NULL, NULL, NULL, 0, 0};
    int c, bad = 0;
    while ((c = getopt_long(argc, argv, "i:d:s:h", longs, NULL)) != -1) {
        switch (c) {
        case 'i': bad |= number(optarg, 50, 60000, &o->interval_ms); break;
        case 'd': bad |= number(optarg, 0, 31 * 86400, &o->duration_s); break;
        case 's': bad |= number(optarg, JS_SLICE_MIN_SECONDS, JS_SLICE_MAX_SECONDS, &o->slice_s); break;
        case 't': bad |= number(optarg, 1, 600000, &o->timeout_ms); break;
        case 'n': o->nvml = optarg; break;
        case 'p': o->powercap = optarg; break;
        case 'g': o->gpus = optarg; break;
        case 'e': o->step_env = 1; break;
        case 'S': o->slices_only = 1; break;
        case 'h': usage(stdout); exit(0);
        default: return -1;
        }
    }
    if (bad || optind != argc || (o->gpus != NULL && o->step_env))
        return -1;
    return 0;
}

static const char *env_lookup(const char *name, void *arg)
{
    (void)arg;
    return getenv(name);
}

struct run {
    struct jsg_gpus *g;
    int partial; /* the slice being printed is the last, open one */
    unsigned long slices;
};

static void print_slice(const struct jsg_slice *s, void *arg)
{
    struct run *r = arg;
    jsg_json_slice(stdout, r->g, s, r->partial);
    r->slices++;
}

static int64_t clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static double cpu_us(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru); /* the worker thread's time included */
    return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 + ru.ru_utime.tv_usec +
           ru.ru_stime.tv_usec;
}

static const char *select_gpus(struct jsg_gpus *g, const struct opts *o)
{
    const char *source = "all";
    if (o->step_env)
        jsg_select_env(g, env_lookup, NULL, &source);
    else if (o->gpus != NULL) {
        jsg_select_list(g, o->gpus, NULL);
        source = "--gpus";
    } else
        jsg_select_all(g);
    return source;
}

/* the sampling loop; returns the number of samples taken */
static long sample(const struct opts *o, struct run *r, struct jsg_powercap *pc,
                   struct jsg_slicer *sl, struct jsg_tick *tick)
{
    const int64_t step = o->interval_ms * 1000000LL;
    const int64_t t0 = clock_ns(CLOCK_MONOTONIC);
    const int64_t end = t0 + o->duration_s * 1000000000LL;
    long n = 0;
    for (int64_t next = t0; !stop && (o->duration_s == 0 || next <= end); next += step) {
        struct timespec at = {(time_t)(next / 1000000000LL), (long)(next % 1000000000LL)};
        while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) == EINTR)
            ;
        if (stop)
            break;
        jsg_read(r->g, clock_ns(CLOCK_REALTIME), tick);
        jsg_powercap_read(pc, tick);
        if (!o->slices_only)
            jsg_json_tick(stdout, r->g, tick);
        jsg_slicer_add(sl, tick, print_slice, r);
        fflush(stdout);
        n++;
    }
    return n;
}

int main(int argc, char **argv)
{
    struct opts o;
    if (parse(argc, argv, &o) != 0) {
        usage(stderr);
        return 2;
    }
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    double c0 = cpu_us();
    struct run r = {jsg_open(o.nvml, (int)o.timeout_ms), 0, 0};
    if (r.g == NULL)
        return 1;
    static struct jsg_powercap pc;
    jsg_powercap_open(&pc, o.powercap);
    const char *source = select_gpus(r.g, &o);
    double open_us = cpu_us() - c0;
    jsg_json_node(stdout, r.g, &pc, (int32_t)o.slice_s, source);

    static struct jsg_slicer sl;
    static struct jsg_tick tick;
    jsg_slicer_init(&sl, (int32_t)o.slice_s);
    double c1 = cpu_us();
    long n = sample(&o, &r, &pc, &sl, &tick);
    r.partial = 1;
    jsg_slicer_flush(&sl, print_slice, &r);
    double used = cpu_us() - c1;

    int ngpu = 0;
    for (int i = 0; i < jsg_ndevices(r.g); i++)
        ngpu += jsg_device(r.g, i)->selected;
    double per_sample = n > 0 ? used / n : 0;
    double per_slice = per_sample * (o.slice_s * 1000.0 / o.interval_ms);
    printf("{\"type\":\"end\",\"samples\":%ld,\"slices\":%lu,\"gpus\":%d,\"open_cpu_ms\":%.3f,"
           "\"cpu_ms\":%.3f,\"cpu_us_per_sample\":%.1f,\"cpu_us_per_gpu_per_slice\":%.1f,"
           "\"stuck\":%s}\n",
           n, r.slices, ngpu, open_us / 1000, used / 1000, per_sample,
           ngpu > 0 ? per_slice / ngpu : 0.0, jsg_stuck(r.g) ? "true" : "false");
    jsg_powercap_close(&pc);
    jsg_close(r.g);
    return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The GPU sampler's own CPU time (bench/gpu/run): 8 scripted GPUs with 4 processes each
 * (tests/gpu/nvml_standin.c, whose path is the first argument) and 4 scripted powercap zones,
 * read as the node side will: through the worker thread and its deadline, then the slicer.
 * The time is the process's (caller and worker); the stand-in's own work is in it, a real
 * driver's ioctls are not (bench/gpu/device-check measures those on a real GPU). Then the
 * relay's part: the step record (gpu_record.c) with its per-process table, each listed process
 * tested as the relay does without a step cgroup (its parents read from /proc/PID/stat: two
 * levels here, a program that a task's shell started).
 */
#include "config.h"

#include "gpu_procs.h"
#include "gpu_record.h"
#include "jsgpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NGPU 8
#define T0 (1795219200LL * 1000000000LL)

static double cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

static void scripts(const char *dir)
{
    char path[256], line[320];
    snprintf(path, sizeof(path), "%s/nvml", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        exit(1);
    }
    for (int g = 0; g < NGPU; g++) {
        fprintf(f, "gpu uuid=GPU-%08d name=H200 mem_total=150000000000 mem_used=1000+4096"
                   " util_sm=10,20,30,40,50,60,70,80,90 util_mem=5 power=100000+10"
                   " energy=0+400\n", g);
        for (int p = 0; p < 4; p++)
            fprintf(f, "proc pid=%d mem=%d sm=%d memutil=3\n", 1000 + g * 4 + p, 1 << 30, 20 + p);
    }
    fclose(f);
    setenv("JS_NVML_STANDIN", path, 1);
    static const char *const zones[][2] = {{"intel-rapl:0", "package-0"},
                                           {"intel-rapl:0:2", "dram"},
                                           {"intel-rapl:1", "package-1"},
                                           {"intel-rapl:1:2", "dram"}};
    for (size_t z = 0; z < 4; z++) {
        snprintf(path, sizeof(path), "%s/pc/%s", dir, zones[z][0]);
        mkdir(path, 0755);
        snprintf(line, sizeof(line), "%s/name", path);
        write_file(line, zones[z][1]);
        snprintf(line, sizeof(line), "%s/energy_uj", path);
        write_file(line, "123456789\n");
        snprintf(line, sizeof(line), "%s/max_energy_range_uj", path);
        write_file(line, "262143328850\n");
    }
}

/* the relay's test of a pid without a step cgroup (jsg_descends): two levels of /proc/PID/stat,
 * this process's and its parent's, up to its grandparent */
static pid_t grandparent;
static int two_levels(uint32_t pid, void *arg)
{
    (void)pid;
    (void)arg;
    return jsg_descends(getpid(), grandparent, -1);
}

/* the relay's part per tick: the process test and the record (µs of CPU a tick) */
static double record_part(struct jsg_gpus *g, struct jsg_powercap *pc, int n)
{
    static struct jsg_tick tick;
    static struct jsg_slicer sl;
    struct jsg_record *r = jsg_record_new(g, pc, 4, "SLURM_STEP_GPUS=0-7", 0);
    jsg_slicer_init(&sl, 4);
    double spent = 0;
    for (int k = 0; k < n; k++) {
        jsg_read(g, T0 + (int64_t)k * 1000000000LL, &tick);
        double a = cpu_us();
        jsg_record_filter_procs(r, &tick, two_levels, NULL);
        jsg_slicer_add(&sl, &tick, jsg_record_slice, r);
        spent += cpu_us() - a;
    }
    FILE *f = fopen("/dev/null", "w");
    double a = cpu_us();
    jsg_slicer_flush(&sl, jsg_record_slice, r);
    jsg_record_write(r, g, f);
    spent += cpu_us() - a;
    fclose(f);
    jsg_record_free(r);
    return spent / n;
}

static void drop(const struct jsg_slice *s, void *arg)
{
    (*(long *)arg) += s->ticks;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bench_gpu NVML-STAND-IN.so\n");
        return 2;
    }
    char dir[] = "/tmp/js-bench-gpu.XXXXXX";
    if (mkdtemp(dir) == NULL)
        return 1;
    char pcdir[600];
    snprintf(pcdir, sizeof(pcdir), "%s/pc", dir);
    mkdir(pcdir, 0755);
    scripts(dir);

    struct jsg_gpus *g = jsg_open(argv[1], 2000);
    if (g == NULL || jsg_select_all(g) != NGPU) {
        fprintf(stderr, "bench gpu: %s\n", jsg_status(g));
        return 1;
    }
    static struct jsg_powercap pc;
    static struct jsg_tick tick;
    static struct jsg_slicer sl;
    jsg_powercap_open(&pc, pcdir);
    jsg_slicer_init(&sl, 4);
    const int n = 4000;
    long ticks = 0;
    double read = 0, zones = 0, slicer = 0;
    for (int k = -20; k < n; k++) { /* 20 to warm up */
        double a = cpu_us();
        jsg_read(g, T0 + (int64_t)k * 1000000000LL, &tick);
        double b = cpu_us();
        jsg_powercap_read(&pc, &tick);
        double c = cpu_us();
        jsg_slicer_add(&sl, &tick, drop, &ticks);
        double d = cpu_us();
        if (k >= 0)
            read += b - a, zones += c - b, slicer += d - c;
    }
    double per_read = (read + zones + slicer) / n;
    printf("gpu read of %d GPUs x 4 processes (stand-in NVML, worker thread): %.1f us\n", NGPU,
           read / n);
    printf("gpu powercap read of %d zones: %.1f us\n", pc.nzone, zones / n);
    printf("gpu slicer, one tick of %d GPUs: %.1f us\n", NGPU, slicer / n);
    printf("gpu sampler CPU per GPU per slice (4 s slice, a read a second): %.1f us\n",
           per_read * 4 / NGPU);
    printf("gpu sampler CPU per slice per node (%d GPUs, a read a second): %.3f ms (target <= 1 ms)\n",
           NGPU, per_read * 4 / 1000);
    printf("gpu sampler CPU per slice per node (%d GPUs, a read every 0.5 s): %.3f ms\n", NGPU,
           per_read * 8 / 1000);
    grandparent = jsg_parent_of(getppid());
    if (two_levels(0, NULL) != 1) {
        fprintf(stderr, "bench gpu: this process does not descend from its grandparent\n");
        return 1;
    }
    double rec = record_part(g, &pc, n);
    double a = cpu_us();
    for (int k = 0; k < n; k++)
        two_levels(0, NULL);
    double first = (cpu_us() - a) / n;
    printf("gpu relay's test of a process first listed (2 /proc/PID/stat reads): %.1f us\n", first);
    printf("gpu relay's record per tick (%d GPUs x 4 processes, each tested once while listed, slicer "
           "included, the record written once): %.1f us\n", NGPU, rec);
    printf("gpu relay's record per tick if all %d processes were new at every reading: %.1f us\n", NGPU * 4,
           rec + first * NGPU * 4);
    printf("gpu relay CPU per slice per node with the record and the process test: %.3f ms (target <= 1 ms)\n",
           (per_read - slicer / n + rec) * 4 / 1000);
    printf("gpu sampler stuck: %s; ticks sliced: %ld\n", jsg_stuck(g) ? "yes" : "no", ticks);
    jsg_powercap_close(&pc);
    jsg_close(g);
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}

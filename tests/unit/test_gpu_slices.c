/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the sampler's slices and CPU energy (gpu/gpu_slices.c, gpu/gpu_powercap.c):
 * energy between readings shared among slices in proportion to time with an exact sum, gaps,
 * a clock that goes back, counter wraps, and a scripted powercap tree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "jsgpu.h"

#define T0 (1795219200LL * 1000000000LL)
#define SEC 1000000000LL

struct seen {
    int n;
    struct jsg_slice s[8];
};

static void keep(const struct jsg_slice *s, void *arg)
{
    struct seen *v = arg;
    if (v->n < 8)
        v->s[v->n++] = *s;
}

static struct jsg_slicer sl;
static struct jsg_tick t;
static struct seen seen;

/* a tick of one GPU with an energy counter (mJ) and one powercap zone (µJ) */
static void feed(int64_t at, uint64_t gpu_mj, uint64_t zone_uj)
{
    memset(&t, 0, sizeof(t));
    t.t_ns = at;
    t.ndev = 1;
    t.dev[0].have = JSG_HAVE_ENERGY | JSG_HAVE_UTIL;
    t.dev[0].energy_mj = gpu_mj;
    t.dev[0].util_sm = 50;
    t.nzone = 1;
    t.zone[0] = (struct jsg_zone_reading){zone_uj, 1000000, 1};
    jsg_slicer_add(&sl, &t, keep, &seen);
}

static void begin(int32_t seconds)
{
    memset(&seen, 0, sizeof(seen));
    jsg_slicer_init(&sl, seconds);
}

static void energy_is_shared_by_time_across_a_boundary(void **state)
{
    (void)state;
    begin(4);
    /* 300 mJ between 3 s and 4.5 s: 200 before the boundary at 4 s, 100 after */
    feed(T0 + 3 * SEC, 1000, 0);
    feed(T0 + 4 * SEC + SEC / 2, 1300, 900);
    jsg_slicer_flush(&sl, keep, &seen);
    assert_int_equal(seen.n, 2);
    assert_int_equal(seen.s[0].index, 1795219200 / 4);
    assert_int_equal(seen.s[0].dev[0].energy_uj, 200000);
    assert_int_equal(seen.s[1].dev[0].energy_uj, 100000);
    assert_int_equal(seen.s[0].zone_uj[0], 600);
    assert_int_equal(seen.s[1].zone_uj[0], 300);
    assert_int_equal(seen.s[0].ticks, 1);
    assert_int_equal(seen.s[1].dev[0].util_sm_sum, 50);
}

static void a_gap_hands_out_its_slices_and_the_sum_is_exact(void **state)
{
    (void)state;
    begin(1);
    /* 1001 µJ... of zone energy over 3.3 slices: every part whole, the sum exact */
    feed(T0 + SEC / 3, 0, 0);
    feed(T0 + 3 * SEC + SEC * 2 / 3, 1001, 1001);
    jsg_slicer_flush(&sl, keep, &seen);
    assert_int_equal(seen.n, 4);
    int64_t gpu = 0, zone = 0;
    for (int i = 0; i < seen.n; i++) {
        gpu += seen.s[i].dev[0].energy_uj;
        zone += seen.s[i].zone_uj[0];
        assert_int_equal(seen.s[i].index, 1795219200 + i);
    }
    assert_int_equal(gpu, 1001000);
    assert_int_equal(zone, 1001);
    /* the slices inside the gap had no reading, but their share of the energy */
    assert_int_equal(seen.s[1].ticks, 0);
    assert_int_equal(seen.s[1].zone_uj[0], 300);
    assert_int_equal(seen.s[1].dev[0].util_n, 0);
}

static void a_long_gap_and_a_clock_going_back(void **state)
{
    (void)state;
    begin(4);
    feed(T0, 0, 0);
    feed(T0 - SEC, 50, 50); /* back in time: left out */
    feed(T0 + 2 * SEC, 100, 100);
    /* over JSG_MAX_GAP_SLICES slices later: its energy is not spread */
    feed(T0 + (int64_t)(JSG_MAX_GAP_SLICES + 5) * 4 * SEC, 9000, 9000);
    jsg_slicer_flush(&sl, keep, &seen);
    assert_int_equal(seen.n, 2);
    assert_int_equal(seen.s[0].ticks, 2);
    assert_int_equal(seen.s[0].dev[0].energy_uj, 100000);
    assert_int_equal(seen.s[1].dev[0].energy_uj, 0);
    assert_int_equal(seen.s[1].index - seen.s[0].index, JSG_MAX_GAP_SLICES + 5);
    assert_int_equal(sl.gap_slices_skipped, JSG_MAX_GAP_SLICES + 4);
}

static void counters_wrap_at_their_range(void **state)
{
    (void)state;
    assert_int_equal(jsg_counter_delta(100, 250, 1000), 150);
    assert_int_equal(jsg_counter_delta(999000, 500, 1000000), 1500);
    assert_int_equal(jsg_counter_delta(5000, 10, 1000), 0); /* above its range: not a wrap */
    assert_int_equal(jsg_counter_delta(5, 1, 0), 0);
    begin(4);
    feed(T0, 0, 999000);
    feed(T0 + SEC, 0, 500);
    jsg_slicer_flush(&sl, keep, &seen);
    assert_int_equal(seen.s[0].zone_uj[0], 1500);
    /* a GPU counter that goes back (the driver reloaded) is no energy, not a wrap */
    begin(4);
    feed(T0, 5000, 0);
    feed(T0 + SEC, 10, 0);
    jsg_slicer_flush(&sl, keep, &seen);
    assert_int_equal(seen.s[0].dev[0].energy_uj, 0);
    assert_int_equal(seen.s[0].dev[0].energy, JSG_ENERGY_NONE);
}

static char tree[64];

static void put(const char *zone, const char *file, const char *value)
{
    char path[256];
    snprintf(path, sizeof(path), "%s/%s", tree, zone);
    mkdir(path, 0755);
    snprintf(path, sizeof(path), "%s/%s/%s", tree, zone, file);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%s\n", value);
    fclose(f);
}

static void zone(const char *dir, const char *name, const char *uj)
{
    put(dir, "name", name);
    put(dir, "energy_uj", uj);
    put(dir, "max_energy_range_uj", "1000000");
}

static void powercap_reads_package_and_dram_zones(void **state)
{
    (void)state;
    snprintf(tree, sizeof(tree), "/tmp/js-powercap.XXXXXX");
    assert_non_null(mkdtemp(tree));
    zone("intel-rapl:1", "package-1", "5000");
    zone("intel-rapl:0", "package-0", "999000");
    zone("intel-rapl:0:0", "core", "1");
    zone("intel-rapl:0:2", "dram", "100");
    zone("intel-rapl-mmio:0", "package-0", "7");
    static struct jsg_powercap pc;
    assert_int_equal(jsg_powercap_open(&pc, tree), 3);
    assert_string_equal(pc.status, "ok");
    assert_string_equal(pc.zone[0].dir, "intel-rapl:0");
    assert_string_equal(pc.zone[1].dir, "intel-rapl:0:2");
    assert_string_equal(pc.zone[1].name, "dram");
    assert_string_equal(pc.zone[2].name, "package-1");
    assert_int_equal(pc.zone[0].max_uj, 1000000);
    begin(4);
    memset(&t, 0, sizeof(t));
    t.t_ns = T0;
    jsg_powercap_read(&pc, &t);
    assert_int_equal(t.nzone, 3);
    assert_int_equal(t.zone[0].energy_uj, 999000);
    jsg_slicer_add(&sl, &t, keep, &seen);
    /* package-0 wraps; dram's file is gone for a moment: no figure rather than a wrong one */
    zone("intel-rapl:0", "package-0", "2500");
    zone("intel-rapl:1", "package-1", "9000");
    char path[256];
    snprintf(path, sizeof(path), "%s/intel-rapl:0:2/energy_uj", tree);
    unlink(path);
    t.t_ns = T0 + SEC;
    jsg_powercap_read(&pc, &t);
    assert_false(t.zone[1].have);
    jsg_slicer_add(&sl, &t, keep, &seen);
    jsg_slicer_flush(&sl, keep, &seen);
    assert_int_equal(seen.s[0].zone_uj[0], 3500);
    assert_false(seen.s[0].zone_have[1]);
    assert_int_equal(seen.s[0].zone_uj[2], 4000);
    jsg_powercap_close(&pc);
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
    assert_int_equal(system(cmd), 0);
}

static void powercap_absent_is_said_as_such(void **state)
{
    (void)state;
    static struct jsg_powercap pc;
    assert_int_equal(jsg_powercap_open(&pc, "/nonexistent/powercap"), 0);
    assert_string_equal(pc.status, "no CPU energy: /nonexistent/powercap: No such file or directory");
    memset(&t, 0, sizeof(t));
    jsg_powercap_read(&pc, &t);
    assert_int_equal(t.nzone, 0);
    jsg_powercap_close(&pc);
    assert_int_equal(jsg_powercap_open(&pc, "/tmp"), 0);
    assert_string_equal(pc.status, "no CPU energy: /tmp has no RAPL package zone");
    jsg_powercap_close(&pc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(energy_is_shared_by_time_across_a_boundary),
        cmocka_unit_test(a_gap_hands_out_its_slices_and_the_sum_is_exact),
        cmocka_unit_test(a_long_gap_and_a_clock_going_back),
        cmocka_unit_test(counters_wrap_at_their_range),
        cmocka_unit_test(powercap_reads_package_and_dram_zones),
        cmocka_unit_test(powercap_absent_is_said_as_such),
    };
    return cmocka_run_group_tests_name("gpu_slices", tests, NULL, NULL);
}

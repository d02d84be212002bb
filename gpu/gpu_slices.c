/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Ticks into cluster-aligned slices (common/slice.h): per device the mean and max
 * utilization, the peak memory, the mean power and the energy; per process its peak memory
 * and mean utilization; per powercap zone the energy. A reading belongs to the slice of its
 * time; the energy between two readings is shared among the slices that interval spans in
 * proportion to time, in whole microjoules whose sum is exactly the counter's difference.
 */
#include "config.h"

#include "jsgpu.h"
#include "slice.h"

#include <string.h>

uint64_t jsg_counter_delta(uint64_t prev, uint64_t cur, uint64_t max)
{
    if (cur >= prev)
        return cur - prev;
    if (max == 0 || prev > max)
        return 0; /* not a wrap we can reckon: counted as nothing rather than as garbage */
    return (max - prev) + cur;
}

void jsg_slicer_init(struct jsg_slicer *sl, int32_t seconds)
{
    memset(sl, 0, sizeof(*sl));
    sl->seconds = seconds >= JS_SLICE_MIN_SECONDS && seconds <= JS_SLICE_MAX_SECONDS
                      ? seconds
                      : JS_SLICE_DEFAULT_SECONDS;
}

static void start(struct jsg_slicer *sl, int64_t index, const struct jsg_tick *t)
{
    memset(&sl->cur, 0, sizeof(sl->cur));
    sl->cur.index = index;
    sl->cur.seconds = sl->seconds;
    sl->cur.ndev = t->ndev;
    sl->cur.nzone = t->nzone;
}

static void add_proc(struct jsg_slice *s, const struct jsg_proc *p)
{
    struct jsg_slice_proc *e = NULL;
    for (int i = 0; i < s->nproc && e == NULL; i++)
        if (s->proc[i].pid == p->pid && s->proc[i].dev == p->dev)
            e = &s->proc[i];
    if (e == NULL) {
        if (s->nproc >= JSG_MAX_SLICE_PROCS) {
            s->proc_dropped++;
            return;
        }
        e = &s->proc[s->nproc++];
        memset(e, 0, sizeof(*e));
        e->pid = p->pid;
        e->dev = p->dev;
    }
    e->samples++;
    if (p->have & JSG_HAVE_UTIL) {
        e->util_n++;
        e->util_sm_sum += p->util_sm;
        e->util_mem_sum += p->util_mem;
        if (p->util_sm > e->util_sm_max)
            e->util_sm_max = p->util_sm;
    }
    if (p->have & JSG_HAVE_MEM) {
        e->mem_n++;
        if (p->mem_used > e->mem_used_max)
            e->mem_used_max = p->mem_used;
    }
}

static void add_reading(struct jsg_slice_dev *d, const struct jsg_reading *r)
{
    d->gone |= r->gone;
    d->failed += r->failed;
    if (r->have == 0)
        return;
    d->samples++;
    if (r->have & JSG_HAVE_UTIL) {
        d->util_n++;
        d->util_sm_sum += r->util_sm;
        d->util_mem_sum += r->util_mem;
        if (r->util_sm > d->util_sm_max)
            d->util_sm_max = r->util_sm;
        if (r->util_mem > d->util_mem_max)
            d->util_mem_max = r->util_mem;
    }
    if (r->have & JSG_HAVE_MEM) {
        d->mem_n++;
        if (r->mem_used > d->mem_used_max)
            d->mem_used_max = r->mem_used;
        d->mem_total = r->mem_total;
    }
    if (r->have & JSG_HAVE_POWER) {
        d->power_n++;
        d->power_mw_sum += r->power_mw;
        if (r->power_mw > d->power_mw_max)
            d->power_mw_max = r->power_mw;
    }
}

static void add_tick(struct jsg_slice *s, const struct jsg_tick *t)
{
    s->ticks++;
    if (t->ndev > s->ndev)
        s->ndev = t->ndev;
    if (t->nzone > s->nzone)
        s->nzone = t->nzone;
    for (int i = 0; i < t->ndev; i++)
        add_reading(&s->dev[i], &t->dev[i]);
    for (int i = 0; i < t->nproc; i++)
        add_proc(s, &t->proc[i]);
    s->proc_dropped += t->proc_dropped;
}

static void remember(struct jsg_slicer *sl, const struct jsg_tick *t)
{
    sl->prev_ns = t->t_ns;
    memset(sl->prev, 0, sizeof(sl->prev));
    memset(sl->prev_zone, 0, sizeof(sl->prev_zone));
    memcpy(sl->prev, t->dev, sizeof(t->dev[0]) * (size_t)t->ndev);
    memcpy(sl->prev_zone, t->zone, sizeof(t->zone[0]) * (size_t)t->nzone);
}

/* a device's energy between two readings (µJ), and how it was known */
static int64_t interval_energy(const struct jsg_reading *a, const struct jsg_reading *b,
                               int64_t dt_ns, uint8_t *kind)
{
    *kind = JSG_ENERGY_NONE;
    if ((a->have & b->have & JSG_HAVE_ENERGY) && b->energy_mj >= a->energy_mj) {
        *kind = JSG_ENERGY_COUNTER;
        return (int64_t)(b->energy_mj - a->energy_mj) * 1000;
    }
    /* no counter (or it went back: the driver was reloaded): power x time, trapezoids */
    if (a->have & b->have & JSG_HAVE_POWER) {
        *kind = JSG_ENERGY_ESTIMATED;
        __int128 uj = (__int128)((uint64_t)a->power_mw + b->power_mw) * dt_ns / 2000000;
        return (int64_t)uj;
    }
    return 0;
}

int64_t jsg_time_share(int64_t e, int64_t t0, int64_t t1, int64_t from, int64_t to)
{
    int64_t dt = t1 - t0;
    int64_t a = (from > t0 ? from : t0) - t0;
    int64_t b = (to < t1 ? to : t1) - t0;
    if (b <= a)
        return 0;
    return (int64_t)((__int128)e * b / dt - (__int128)e * a / dt);
}

struct spread {
    int64_t dev_uj[JSG_MAX_DEVICES];
    uint8_t dev_kind[JSG_MAX_DEVICES];
    int64_t zone_uj[JSG_MAX_ZONES];
    uint8_t zone_have[JSG_MAX_ZONES];
};

static void measure(const struct jsg_slicer *sl, const struct jsg_tick *t, struct spread *sp)
{
    int64_t dt = t->t_ns - sl->prev_ns;
    for (int i = 0; i < t->ndev; i++)
        sp->dev_uj[i] = interval_energy(&sl->prev[i], &t->dev[i], dt, &sp->dev_kind[i]);
    for (int i = 0; i < t->nzone; i++) {
        const struct jsg_zone_reading *a = &sl->prev_zone[i], *b = &t->zone[i];
        sp->zone_have[i] = a->have && b->have;
        sp->zone_uj[i] =
            sp->zone_have[i] ? (int64_t)jsg_counter_delta(a->energy_uj, b->energy_uj, b->max_uj) : 0;
    }
}

static void give(struct jsg_slice *s, const struct spread *sp, const struct jsg_tick *t,
                 int64_t t0, int64_t from, int64_t to)
{
    for (int i = 0; i < t->ndev; i++) {
        if (sp->dev_kind[i] == JSG_ENERGY_NONE)
            continue;
        s->dev[i].energy_uj += jsg_time_share(sp->dev_uj[i], t0, t->t_ns, from, to);
        if (sp->dev_kind[i] > s->dev[i].energy)
            s->dev[i].energy = sp->dev_kind[i];
    }
    for (int i = 0; i < t->nzone; i++) {
        if (!sp->zone_have[i])
            continue;
        s->zone_uj[i] += jsg_time_share(sp->zone_uj[i], t0, t->t_ns, from, to);
        s->zone_have[i] = 1;
    }
}

void jsg_slicer_add(struct jsg_slicer *sl, const struct jsg_tick *t, jsg_slice_fn fn, void *arg)
{
    int64_t s1 = js_slice_of_ns(t->t_ns, sl->seconds);
    if (!sl->started) {
        start(sl, s1, t);
        sl->started = 1;
    } else if (t->t_ns <= sl->prev_ns || s1 < sl->cur.index) {
        return; /* the clock went back: the tick is left out, the next later one counts */
    } else if (s1 - sl->cur.index > JSG_MAX_GAP_SLICES) {
        /* a long silence: its energy is not spread over hundreds of empty slices */
        fn(&sl->cur, arg);
        sl->gap_slices_skipped += (uint32_t)(s1 - sl->cur.index - 1);
        start(sl, s1, t);
    } else {
        struct spread sp;
        measure(sl, t, &sp);
        const int64_t len = (int64_t)sl->seconds * 1000000000LL;
        for (int64_t s = sl->cur.index;; s++) {
            give(&sl->cur, &sp, t, sl->prev_ns, s * len, (s + 1) * len);
            if (s == s1)
                break;
            fn(&sl->cur, arg);
            start(sl, s + 1, t);
        }
    }
    add_tick(&sl->cur, t);
    remember(sl, t);
}

void jsg_slicer_flush(struct jsg_slicer *sl, jsg_slice_fn fn, void *arg)
{
    if (!sl->started)
        return;
    fn(&sl->cur, arg);
    sl->started = 0;
}

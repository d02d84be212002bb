/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The jobs seen, as a hash table of job ids (seen.h). */
#include "config.h"

#include "seen.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SEEN_MIN_CAP 64

static size_t home(const struct seen_table *t, long long job)
{
    uint64_t h = (uint64_t)job * 0x9E3779B97F4A7C15ULL; /* Fibonacci hashing: ids are often consecutive */
    return (size_t)(h ^ (h >> 29)) & (t->cap - 1);
}

/* The slot of job, or of the free slot where it would go. */
static size_t probe(const struct seen_table *t, long long job)
{
    size_t i = home(t, job);
    while (t->slot[i].job != 0 && t->slot[i].job != job)
        i = (i + 1) & (t->cap - 1);
    return i;
}

/* Rebuild with cap slots, keeping every entry (all) or those listed in this pass. */
static void rebuild(struct seen_table *t, size_t cap, int all)
{
    struct seen_table nt = { .slot = calloc(cap, sizeof *nt.slot), .cap = cap, .pass = t->pass };
    if (!nt.slot)
        abort();
    for (size_t i = 0; i < t->cap; i++) {
        const struct seen_job *s = &t->slot[i];
        if (s->job != 0 && (all || s->pass == t->pass)) {
            nt.slot[probe(&nt, s->job)] = *s;
            nt.n++;
        }
    }
    free(t->slot);
    *t = nt;
}

struct seen_job *pi_seen_find(const struct seen_table *t, long long job)
{
    if (t->cap == 0 || job <= 0)
        return NULL;
    size_t i = probe(t, job);
    return t->slot[i].job == job ? &t->slot[i] : NULL;
}

struct seen_job *pi_seen_get(struct seen_table *t, long long job)
{
    struct seen_job *s = pi_seen_find(t, job);
    if (s)
        return s;
    if (2 * (t->n + 1) > t->cap)
        rebuild(t, t->cap ? 2 * t->cap : SEEN_MIN_CAP, 1);
    s = &t->slot[probe(t, job)];
    memset(s, 0, sizeof *s);
    s->job = job;
    s->mtime_ns = s->size = -1;
    s->pass = t->pass;
    t->n++;
    return s;
}

void pi_seen_drop(struct seen_table *t, long long job)
{
    struct seen_job *s = pi_seen_find(t, job);
    if (!s)
        return;
    /* backward-shift deletion: the entries after it that probed past it move up */
    size_t mask = t->cap - 1, i = (size_t)(s - t->slot), j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (t->slot[j].job == 0)
            break;
        size_t k = home(t, t->slot[j].job);
        /* the entry at j may fill i when its home is not cyclically in (i, j] */
        int stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
        if (!stays) {
            t->slot[i] = t->slot[j];
            i = j;
        }
    }
    memset(&t->slot[i], 0, sizeof t->slot[i]);
    t->n--;
}

void pi_seen_begin_pass(struct seen_table *t)
{
    t->pass++;
}

void pi_seen_listed(struct seen_table *t, long long job)
{
    struct seen_job *s = pi_seen_find(t, job);
    if (s)
        s->pass = t->pass;
}

size_t pi_seen_end_pass(struct seen_table *t)
{
    size_t keep = 0;
    for (size_t i = 0; i < t->cap; i++)
        keep += t->slot[i].job != 0 && t->slot[i].pass == t->pass;
    size_t dropped = t->n - keep, cap = SEEN_MIN_CAP;
    while (cap < 4 * keep)
        cap *= 2;
    /* rebuilt when something goes, or the table is far larger than what it holds */
    if (dropped > 0 || (t->cap > SEEN_MIN_CAP && 8 * keep < t->cap))
        rebuild(t, cap, 0);
    return dropped;
}

void pi_seen_free(struct seen_table *t)
{
    free(t->slot);
    memset(t, 0, sizeof *t);
}

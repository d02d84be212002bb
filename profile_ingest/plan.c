/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include "plan.h"

#include <stdlib.h>

long long pi_sched_file_cost(long long size) { return size > PI_SCHED_FILE_MIN ? size : PI_SCHED_FILE_MIN; }

struct key {
    long long uid;
    int aged;
    size_t index;
};

/* by uid, then aged first, then as given */
static int cmp_key(const void *a, const void *b)
{
    const struct key *p = a, *q = b;
    if (p->uid != q->uid)
        return p->uid < q->uid ? -1 : 1;
    if (p->aged != q->aged)
        return p->aged ? -1 : 1;
    return (p->index > q->index) - (p->index < q->index);
}

struct user {
    size_t next, end;  /* its step records: byuid[next..end) */
    long long spent;
    int done;          /* its budget is spent: the rest waits */
};

size_t pi_sched_plan(struct pi_sched_item *items, size_t n, long long user_budget, long long pass_budget, size_t *order)
{
    if (n == 0)
        return 0;
    size_t *byuid = malloc(n * sizeof *byuid);
    struct key *keys = malloc(n * sizeof *keys);
    struct user *users = calloc(n, sizeof *users);
    if (!byuid || !keys || !users)
        abort();
    for (size_t i = 0; i < n; i++) {
        keys[i] = (struct key){ items[i].uid, items[i].aged != 0, i };
        items[i].fate = PI_SCHED_PASS_BUDGET;
    }
    qsort(keys, n, sizeof *keys, cmp_key);
    for (size_t i = 0; i < n; i++)
        byuid[i] = keys[i].index;
    free(keys);
    size_t nusers = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || items[byuid[i]].uid != items[byuid[i - 1]].uid)
            users[nusers++].next = i;
        users[nusers - 1].end = i + 1;
    }
    size_t taken = 0;
    long long pass_spent = 0;
    for (;;) {
        /* the user whose next step record would finish first (aged ones before all) */
        struct user *best = NULL;
        long long best_key = 0;
        int best_aged = 0;
        for (size_t u = 0; u < nusers; u++) {
            struct user *us = &users[u];
            if (us->done || us->next == us->end)
                continue;
            const struct pi_sched_item *it = &items[byuid[us->next]];
            long long key = us->spent + it->cost;
            if (!best || (it->aged && !best_aged) || (it->aged == best_aged && key < best_key)) {
                best = us;
                best_key = key;
                best_aged = it->aged;
            }
        }
        if (!best)
            break;
        size_t idx = byuid[best->next];
        struct pi_sched_item *it = &items[idx];
        if (user_budget > 0 && best->spent > 0 && best->spent + it->cost > user_budget) {
            best->done = 1;
            for (size_t k = best->next; k < best->end; k++)
                items[byuid[k]].fate = PI_SCHED_USER_BUDGET;
            continue;
        }
        if (pass_budget > 0 && pass_spent > 0 && pass_spent + it->cost > pass_budget)
            break; /* the rest keeps PI_SCHED_PASS_BUDGET */
        it->fate = PI_SCHED_TAKEN;
        order[taken++] = idx;
        best->spent += it->cost;
        pass_spent += it->cost;
        best->next++;
    }
    free(byuid);
    free(users);
    return taken;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The order of a pass's step records and what the pass leaves for the next one (docs/ingest.md,
 * "Fairness and bounded cost"). Pure: no I/O, unit-tested. */
#ifndef PI_PLAN_H
#define PI_PLAN_H

#include <stddef.h>

#define PI_SCHED_FILE_MIN 4096 /* a file costs at least this many bytes: open, read, parse, remove */

enum pi_sched_fate {
    PI_SCHED_TAKEN = 0,      /* in this pass, at its place in the order */
    PI_SCHED_USER_BUDGET,    /* left for the next pass: its user's budget of this pass is spent */
    PI_SCHED_PASS_BUDGET,    /* left for the next pass: the pass's budget is spent */
};

struct pi_sched_item {
    long long uid;    /* the job's user (-1: not known: no readable job record) */
    long long cost;   /* bytes: PI_SCHED_FILE_MIN for the records, plus each profile file's size, at least PI_SCHED_FILE_MIN */
    int aged;         /* left over by an earlier pass: taken before the others */
    enum pi_sched_fate fate; /* out */
};

/* Plan a pass over n step records, given in the order that each user's own are to go in
 * (a user's are never reordered, except that aged ones go first).  Weighted fair queuing over
 * users: the next step record is the one of the user whose bytes taken in this pass plus the
 * cost of its next step record is least (aged ones before all others; ties: the lower uid).
 * A user's step record is taken when the user took nothing yet in this pass or it fits in
 * user_budget; the first that does not fit leaves the user's rest to the next pass.  Once a
 * step record does not fit in pass_budget (and the pass took something), the pass ends: all
 * not yet taken is left to the next pass.  A budget <= 0 is no limit.  order[] (n entries)
 * receives the indexes of the step records taken, in the order to ingest them; returns how
 * many.  So every step record goes within a pass or, when left over, first in a later one. */
size_t pi_sched_plan(struct pi_sched_item *items, size_t n, long long user_budget, long long pass_budget, size_t *order);

/* The cost of one profile file of st_size bytes. */
long long pi_sched_file_cost(long long size);

#endif

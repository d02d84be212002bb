/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the order of an ingest pass and its budgets (profile_ingest/plan.c). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "plan.h"

static size_t plan(struct pi_sched_item *it, size_t n, long long user, long long pass, size_t *order)
{
    return pi_sched_plan(it, n, user, pass, order);
}

/* One user's big step record waits behind the others' small ones, and that user's own step
 * records keep their order. */
static void a_big_backlog_does_not_hold_others_back(void **state)
{
    (void)state;
    struct pi_sched_item it[] = {
        { 1, 1000, 0, 0 }, { 1, 10, 0, 0 }, { 1, 10, 0, 0 }, { 1, 10, 0, 0 }, /* A */
        { 2, 10, 0, 0 }, { 2, 10, 0, 0 },                                     /* B */
        { 3, 10, 0, 0 },                                                      /* C */
    };
    size_t order[7], want[7] = { 4, 6, 5, 0, 1, 2, 3 };
    assert_int_equal(plan(it, 7, 0, 0, order), 7);
    assert_memory_equal(order, want, sizeof want);
    for (int i = 0; i < 7; i++)
        assert_int_equal(it[i].fate, PI_SCHED_TAKEN);
}

/* Many small step records of one user are interleaved with another's, not run first. */
static void users_take_turns(void **state)
{
    (void)state;
    struct pi_sched_item it[] = { { 5, 1, 0, 0 }, { 5, 1, 0, 0 }, { 5, 1, 0, 0 }, { 9, 1, 0, 0 }, { 9, 1, 0, 0 } };
    size_t order[5], want[5] = { 0, 3, 1, 4, 2 };
    assert_int_equal(plan(it, 5, 0, 0, order), 5);
    assert_memory_equal(order, want, sizeof want);
}

/* A user's budget: what does not fit waits for the next pass; the user's first step record is
 * taken however big it is. */
static void the_user_budget_leaves_the_rest_for_the_next_pass(void **state)
{
    (void)state;
    struct pi_sched_item it[] = { { 1, 10, 0, 0 }, { 1, 10, 0, 0 }, { 1, 10, 0, 0 }, { 1, 10, 0, 0 }, { 2, 10, 0, 0 } };
    size_t order[5], want[3] = { 0, 4, 1 };
    assert_int_equal(plan(it, 5, 25, 0, order), 3);
    assert_memory_equal(order, want, sizeof want);
    assert_int_equal(it[2].fate, PI_SCHED_USER_BUDGET);
    assert_int_equal(it[3].fate, PI_SCHED_USER_BUDGET);
    assert_int_equal(it[4].fate, PI_SCHED_TAKEN);
    struct pi_sched_item big[] = { { 1, 100, 0, 0 }, { 1, 1, 0, 0 } };
    assert_int_equal(plan(big, 2, 25, 0, order), 1);
    assert_int_equal(order[0], 0);
    assert_int_equal(big[1].fate, PI_SCHED_USER_BUDGET);
}

/* The pass's budget ends the pass; what it left goes first in the next one, before every
 * other user's, and a step record of unknown user (-1) is one more user. */
static void the_pass_budget_ends_the_pass_and_its_leftovers_go_first(void **state)
{
    (void)state;
    struct pi_sched_item it[] = { { 1, 10, 0, 0 }, { 1, 10, 0, 0 }, { 1, 10, 0, 0 }, { 2, 10, 0, 0 }, { 2, 10, 0, 0 }, { -1, 10, 0, 0 } };
    size_t order[6], want[3] = { 5, 0, 3 };
    assert_int_equal(plan(it, 6, 0, 30, order), 3);
    assert_memory_equal(order, want, sizeof want);
    assert_int_equal(it[1].fate, PI_SCHED_PASS_BUDGET);
    assert_int_equal(it[2].fate, PI_SCHED_PASS_BUDGET);
    assert_int_equal(it[4].fate, PI_SCHED_PASS_BUDGET);
    /* the next pass: the leftovers are aged; a big one of them goes before new small ones */
    struct pi_sched_item next[] = { { 1, 10, 0, 0 }, { 1, 500, 1, 0 }, { 2, 10, 0, 0 }, { 3, 1, 0, 0 } };
    size_t want2[2] = { 1, 3 };
    assert_int_equal(plan(next, 4, 0, 505, order), 2);
    assert_memory_equal(order, want2, sizeof want2);
    assert_int_equal(next[0].fate, PI_SCHED_PASS_BUDGET);
    /* no budget: everything, and nothing at all */
    assert_int_equal(plan(next, 4, 0, 0, order), 4);
    assert_int_equal(plan(next, 0, 0, 0, order), 0);
}

static void file_cost_has_a_floor(void **state)
{
    (void)state;
    assert_int_equal(pi_sched_file_cost(0), PI_SCHED_FILE_MIN);
    assert_int_equal(pi_sched_file_cost(3), PI_SCHED_FILE_MIN);
    assert_int_equal(pi_sched_file_cost(1 << 20), 1 << 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_big_backlog_does_not_hold_others_back),
        cmocka_unit_test(users_take_turns),
        cmocka_unit_test(the_user_budget_leaves_the_rest_for_the_next_pass),
        cmocka_unit_test(the_pass_budget_ends_the_pass_and_its_leftovers_go_first),
        cmocka_unit_test(file_cost_has_a_floor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the ingest's jobs seen (profile_ingest/seen.c): a hash table that answers as a
 * plain list would, and that holds no more jobs than the spool however many went through. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "seen.h"

static uint64_t rng = 88172645463325252ULL;
static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Random adds, finds and drops against a plain array of flags: the same answers, the same
 * count, and each entry keeps what was written into it. */
static void answers_as_a_list_would(void **state)
{
    (void)state;
    enum { IDS = 3000, OPS = 200000 };
    static char in[IDS + 1];
    struct seen_table t = { 0 };
    size_t n = 0;
    for (int k = 0; k < OPS; k++) {
        long long id = 1 + (long long)(next_random() % IDS) * 7919; /* spread, with collisions */
        size_t x = (size_t)((id - 1) / 7919) + 1;
        switch (next_random() % 3) {
        case 0: {
            struct seen_job *s = pi_seen_get(&t, id);
            assert_non_null(s);
            assert_int_equal(s->job, id);
            if (!in[x]) {
                assert_int_equal(s->mtime_ns, -1);
                assert_int_equal(s->size, -1);
                s->size = id * 3;
                in[x] = 1;
                n++;
            }
            assert_int_equal(s->size, id * 3);
            break;
        }
        case 1: {
            struct seen_job *s = pi_seen_find(&t, id);
            if (in[x]) {
                assert_non_null(s);
                assert_int_equal(s->size, id * 3);
            } else
                assert_null(s);
            break;
        }
        default:
            pi_seen_drop(&t, id);
            n -= in[x];
            in[x] = 0;
            assert_null(pi_seen_find(&t, id));
        }
        assert_int_equal(t.n, n);
    }
    for (size_t x = 1; x <= IDS; x++) {
        long long id = 1 + (long long)(x - 1) * 7919;
        struct seen_job *s = pi_seen_find(&t, id);
        if (in[x]) {
            assert_non_null(s);
            assert_int_equal(s->size, id * 3);
        } else
            assert_null(s);
    }
    assert_null(pi_seen_find(&t, 0));
    pi_seen_free(&t);
}

/* 200,000 jobs go through a spool that holds 500 at a time (each pass lists the spool; a job's
 * directory is removed once done, and some vanish unannounced): the table never holds more
 * than the spool, nor grows past the size that many need, and empties with the spool. With
 * the list of before it held all 200,000. */
static void stays_bounded_over_many_jobs(void **state)
{
    (void)state;
    enum { JOBS = 200000, SPOOL = 500, STEP = 50 };
    struct seen_table t = { 0 };
    size_t most = 0, most_cap = 0;
    for (long long first = 1; first <= JOBS + SPOOL; first += STEP) {
        pi_seen_begin_pass(&t);
        for (long long j = first; j < first + SPOOL && j <= JOBS; j++) {
            pi_seen_listed(&t, j);
            struct seen_job *s = pi_seen_get(&t, j);
            s->final = j < first + STEP;
            /* the oldest are done: fully ingested, their directories removed (every third one
             * goes behind the daemon's back: the next pass does not list it) */
            if (s->final && j % 3 != 0)
                pi_seen_drop(&t, j);
        }
        pi_seen_end_pass(&t);
        most = t.n > most ? t.n : most;
        most_cap = t.cap > most_cap ? t.cap : most_cap;
        assert_true(t.n <= SPOOL);
    }
    printf("# 200000 jobs through a spool of 500: at most %zu held, %zu slots\n", most, most_cap);
    assert_true(most_cap <= 4 * 512);
    /* the spool is empty: a pass lists nothing */
    pi_seen_begin_pass(&t);
    pi_seen_end_pass(&t);
    assert_int_equal(t.n, 0);
    assert_true(t.cap <= 64);
    pi_seen_free(&t);
}

/* The figure: one pass over a spool of N job directories, each looked up once, by the plain
 * list of before (linear search) and by the table. Not a timed test: printed only. */
static void bench_figure(void **state)
{
    (void)state;
    enum { N = 20000 };
    struct timespec a, b, c;
    long long *list = calloc(N, sizeof *list), found = 0;
    size_t nlist = 0;
    struct seen_table t = { 0 };
    assert_non_null(list);
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int pass = 0; pass < 2; pass++)
        for (long long j = 1; j <= N; j++) {
            size_t i = 0;
            while (i < nlist && list[i] != j)
                i++;
            if (i == nlist)
                list[nlist++] = j;
            found += list[i] == j;
        }
    clock_gettime(CLOCK_MONOTONIC, &b);
    for (int pass = 0; pass < 2; pass++) {
        pi_seen_begin_pass(&t);
        for (long long j = 1; j <= N; j++) {
            pi_seen_listed(&t, j);
            found += pi_seen_get(&t, j)->job == j;
        }
        pi_seen_end_pass(&t);
    }
    clock_gettime(CLOCK_MONOTONIC, &c);
    double lin = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
    double tab = (double)(c.tv_sec - b.tv_sec) * 1e3 + (double)(c.tv_nsec - b.tv_nsec) / 1e6;
    printf("# two passes over %d job directories: %.1f ms with the list of before, %.2f ms with the table\n", N, lin, tab);
    assert_int_equal(found, 4 * N);
    assert_int_equal(t.n, N);
    free(list);
    pi_seen_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(answers_as_a_list_would),
        cmocka_unit_test(stays_bounded_over_many_jobs),
        cmocka_unit_test(bench_figure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

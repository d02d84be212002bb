/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the terminal report's text (cli/report_*.c): human units, strings made safe for
 * a terminal, and whole reports of crafted replies: 80 columns, no control character from the
 * reply, the figures computed right. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/report.h"

static char b[256];

static void bytes_in_binary_units(void **state)
{
    (void)state;
    jsr_bytes(b, sizeof b, 0);
    assert_string_equal(b, "0 B");
    jsr_bytes(b, sizeof b, 1023);
    assert_string_equal(b, "1023 B");
    jsr_bytes(b, sizeof b, 1536);
    assert_string_equal(b, "1.5 KiB");
    jsr_bytes(b, sizeof b, 3.0 * 1048576);
    assert_string_equal(b, "3.0 MiB");
    jsr_bytes(b, sizeof b, 1.25 * 1073741824);
    assert_string_equal(b, "1.2 GiB");
}

static void durations_clocks_percentages(void **state)
{
    (void)state;
    jsr_duration(b, sizeof b, 45);
    assert_string_equal(b, "45 s");
    jsr_duration(b, sizeof b, 725);
    assert_string_equal(b, "12 min 05 s");
    jsr_duration(b, sizeof b, 3 * 3600 + 7 * 60 + 20);
    assert_string_equal(b, "3 h 07 min");
    jsr_duration(b, sizeof b, 2 * 86400 + 4 * 3600);
    assert_string_equal(b, "2 d 04 h");
    jsr_duration(b, sizeof b, -5);
    assert_string_equal(b, "0 s");
    /* sub-second times to the millisecond, short ones to a tenth */
    jsr_duration(b, sizeof b, 0.18);
    assert_string_equal(b, "180 ms");
    jsr_duration(b, sizeof b, 0.0001);
    assert_string_equal(b, "< 1 ms");
    jsr_duration(b, sizeof b, 2);
    assert_string_equal(b, "2 s");
    jsr_duration(b, sizeof b, 2.46);
    assert_string_equal(b, "2.5 s");
    jsr_duration(b, sizeof b, 0.9996);
    assert_string_equal(b, "1 s");
    jsr_clock(b, sizeof b, 725);
    assert_string_equal(b, "00:12:05");
    jsr_clock(b, sizeof b, 86400 + 2 * 3600 + 3 * 60 + 4);
    assert_string_equal(b, "1-02:03:04");
    jsr_percent(b, sizeof b, 1, 0);
    assert_string_equal(b, "-");
    jsr_percent(b, sizeof b, 1, 8);
    assert_string_equal(b, "12.5%");
}

static void strings_lose_control_characters_and_fit(void **state)
{
    (void)state;
    jsr_clean(b, sizeof b, "a\x1b[31mb\r\n\x7f", 0, 1);
    assert_string_equal(b, "a?[31mb???");
    jsr_clean(b, sizeof b, "x\xc2\x9b" "2Jy", 0, 1); /* C1 CSI */
    assert_string_equal(b, "x?2Jy");
    jsr_clean(b, sizeof b, "\xff\xfe", 0, 1); /* not UTF-8 */
    assert_string_equal(b, "??");
    jsr_clean(b, sizeof b, "abcdefgh", 5, 1);
    assert_string_equal(b, "abcd~");
    jsr_clean(b, sizeof b, "abcdefgh", 5, 0);
    assert_string_equal(b, "~efgh");
    jsr_clean(b, sizeof b, "h\xc3\xa9llo", 3, 1);
    assert_string_equal(b, "h\xc3\xa9~");
    jsr_clean(b, sizeof b, "abc", 3, 1);
    assert_string_equal(b, "abc");
    jsr_clean(b, sizeof b, NULL, 3, 1);
    assert_string_equal(b, "");
    char small[4];
    jsr_clean(small, sizeof small, "abcdef", 0, 1);
    assert_string_equal(small, "abc");
}

/* the report of a JSON text, with its checks: no control character but '\n', lines of at most
 * 79 characters */
static char *report(const char *json, int workflow)
{
    json_error_t e;
    json_t *j = json_loads(json, 0, &e);
    if (!j)
        fail_msg("bad test JSON: %s", e.text);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (workflow == 2)
        jsr_step_names(f, json_object_get(j, "step_names"));
    else if (workflow)
        jsr_workflow(f, j, 1767600000);
    else
        jsr_job(f, j, 1767600000, 0);
    fclose(f);
    json_decref(j);
    int col = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '\n') {
            col = 0;
            continue;
        }
        if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
            fail_msg("control character 0x%02x in the report:\n%s", *p, text);
        if ((*p & 0xc0) != 0x80 && ++col > 79)
            fail_msg("a line longer than 79 characters:\n%s", text);
    }
    return text;
}

static const char *const job_json =
    "{\"id\": 4711, \"name\": \"sim\\u001b[2J\\u009b31m\", \"user\": \"alice\", \"cluster\": \"c1\","
    " \"state\": \"COMPLETED\", \"exit_code\": 0, \"reason\": \"None\", \"workflow_id\": 17, \"workflow\": \"wf\","
    " \"submit\": 1767590000, \"eligible\": 1767590004, \"start\": 1767590010, \"end\": 1767590410, \"elapsed\": 400,"
    " \"nodes\": 2, \"cpus\": 8, \"node_list\": \"node[1-2]\", \"partition\": \"debug\", \"account\": \"proj1\", \"qos\": \"normal\","
    " \"usage\": {\"cpu_ns\": 1600000000000, \"max_rss_kib\": 1048576, \"read_bytes\": 3145728,"
    "            \"write_bytes\": 1024, \"profiled_steps\": 2},"
    " \"runtime\": {\"compute_ns\": 600, \"mpi_p2p_ns\": 100, \"mpi_coll_ns\": 100, \"io_posix_ns\": 200},"
    " \"steps\": ["
    "  {\"step\": \"extern\", \"name\": \"extern\", \"state\": \"COMPLETED\", \"profiled\": false},"
    "  {\"step\": \"batch\", \"name\": \"batch\", \"state\": \"COMPLETED\", \"start\": 1767590010,"
    "   \"end\": 1767590410, \"elapsed\": 400, \"cpus\": 4, \"profiled\": true, \"cpu_ns\": 4000000000,"
    "   \"max_rss_kib\": 2048, \"read_bytes\": 0, \"write_bytes\": 0, \"runtime\": {\"idle_ns\": 5}},"
    "  {\"step\": \"0\", \"name\": \"a-very-long-step-name-indeed\", \"state\": \"OUT_OF_MEMORY\","
    "   \"start\": 1767590011, \"end\": 1767590409, \"elapsed\": 398, \"cpus\": 8, \"profiled\": true,"
    "   \"cpu_ns\": 1592000000000, \"max_rss_kib\": 1048576, \"read_bytes\": 3145728, \"write_bytes\": 1024,"
    "   \"incomplete_reason\": \"1 profile quarantined: field \\\"totals\\\" is missing\\n\\u001b]0;x\\u0007\","
    "   \"runtime\": {\"compute_ns\": 600, \"mpi_p2p_ns\": 100, \"mpi_coll_ns\": 100, \"io_posix_ns\": 200}}],"
    " \"files\": ["
    "  {\"path\": \"/a\", \"mode\": \"r\", \"read_bytes\": 10, \"write_bytes\": 0},"
    "  {\"path\": \"/b\", \"mode\": \"r\", \"read_bytes\": 3000000, \"write_bytes\": 0},"
    "  {\"path\": \"/c\", \"mode\": \"w\", \"read_bytes\": 0, \"write_bytes\": 1024},"
    "  {\"path\": \"/d\\u001b[1m\", \"mode\": \"r\", \"read_bytes\": 20, \"write_bytes\": 0},"
    "  {\"path\": \"/e\", \"mode\": \"r\", \"read_bytes\": 30, \"write_bytes\": 0},"
    "  {\"path\": \"/f\", \"mode\": \"r\", \"read_bytes\": 1, \"write_bytes\": 0},"
    "  {\"path\": \"/scratch/project/a/very/deep/directory/tree/with/a/long/name/output.h5\","
    "   \"mode\": \"rw\", \"read_bytes\": 40, \"write_bytes\": 40}],"
    " \"edges\": ["
    "  {\"direction\": \"in\", \"kind\": \"scheduler\", \"job\": 4700, \"name\": \"prep\", \"state\": \"COMPLETED\","
    "   \"condition\": \"afterok\", \"files\": 0, \"paths\": null},"
    "  {\"direction\": \"out\", \"kind\": \"file\", \"job\": 4712, \"name\": \"post\", \"state\": \"PENDING\","
    "   \"condition\": null, \"files\": 3, \"paths\": [\"/scratch/project/results/out.h5\"]}]}";

static void job_report_figures_and_safety(void **state)
{
    (void)state;
    char *t = report(job_json, 0);
    /* the header, the figures, in human units */
    assert_non_null(strstr(t, "Job 4711 \"sim?[2J?31m\" of alice on c1: COMPLETED, exit code 0\n"));
    assert_non_null(strstr(t, "  workflow   wf (jobscreen -w 17)\n"));
    assert_non_null(strstr(t, "  started    2026-01-05 05:13:30, after 10 s waiting (6 s once eligible)\n"));
    assert_non_null(strstr(t, "  resources  2 nodes (node[1-2]), 8 CPUs\n  queue      partition debug, QOS normal, account proj1\n"));
    assert_non_null(strstr(t, "  CPU        efficiency 50.0%: 26 min 40 s of CPU time in 8 CPUs x 6 min 40 s\n"));
    assert_non_null(strstr(t, "  memory     peak 1.0 GiB (its largest process)\n"));
    assert_non_null(strstr(t, "  I/O        read 3.0 MiB, written 1.0 KiB\n"));
    assert_non_null(strstr(t, "  runtime    compute 60.0%, MPI 20.0%, I/O 20.0%\n"));
    /* steps: extern left out, names cut to the column, CPU efficiency per step */
    assert_null(strstr(t, "extern"));
    assert_non_null(strstr(t, "  0      a-very-lon~ OUT_OF_ME~   00:06:38  50.0%   1.0 GiB   3.0 MiB   1.0 KiB\n"));
    assert_non_null(strstr(t, "  batch  batch       COMPLETED    00:06:40   0.2%   2.0 MiB       0 B       0 B\n"));
    assert_non_null(strstr(t, "  batch  idle 100.0%\n"));
    assert_non_null(strstr(t, "  step 0   1 profile quarantined: field \"totals\" is missing??]0;x?\n"));
    /* files: the 5 with the most bytes, most first, a long path keeps its end */
    assert_non_null(strstr(t, "Files: 7, the 5 with the most bytes"));
    char *pb = strstr(t, "  /b "), *pc = strstr(t, "  /c "), *pd = strstr(t, "  /d?[1m ");
    char *plong = strstr(t, "  ~/very/deep/directory/tree/with/a/long/name/output.h5 rw      40 B      40 B\n");
    assert_non_null(pb);
    assert_non_null(pc);
    assert_non_null(pd);
    assert_non_null(plong);
    assert_true(pb < pc && pc < plong && plong < pd);
    assert_null(strstr(t, "  /a "));
    assert_null(strstr(t, "  /f "));
    /* related jobs, with why */
    assert_non_null(strstr(t, "  after  4700       prep         COMPLETED  scheduler: afterok\n"));
    assert_non_null(strstr(t, "  before 4712       post         PENDING    file: ~/project/results/out.h5 +2\n"));
    free(t);
}

/* job&insight=yes: each step's insight and advice (docs/api.md) */
static const char *const insight_json =
    "{\"id\": 9, \"name\": \"n\", \"user\": \"u\", \"cluster\": \"c\", \"state\": \"COMPLETED\", \"submit\": 1767590000,"
    " \"start\": 1767590000, \"end\": 1767590100, \"slice_seconds\": 4, \"files\": [], \"edges\": [],"
    " \"steps\": ["
    "  {\"step\": \"extern\", \"profiled\": false, \"insight\": null, \"advice\": []},"
    "  {\"step\": \"batch\", \"profiled\": true, \"insight\": null, \"advice\": []},"
    "  {\"step\": \"0\", \"profiled\": true, \"advice\": ["
    "    {\"code\": \"DISTURBED\", \"severity\": \"high\", \"message\": \"Other jobs' I/O slowed this step: it lost 12 s (15 %).\"},"
    "    {\"code\": \"SMALL_WRITES\", \"severity\": \"warning\", \"message\": \"\\u001b[2JWrites of 512 B on average: 3,000 calls"
    " moved 1.5 MiB; buffer them in larger blocks, or write through a library that aggregates them for you.\"}],"
    "   \"insight\": {\"light\": \"red\", \"disturbed\": true, \"cause\": \"io\", \"lost_s\": 12.3, \"lost_pct\": 15.4,"
    "    \"evidence\": [{\"first_slice\": 441897502, \"last_slice\": 441897503, \"background\": \"io\", \"scope\": \"cluster\"},"
    "                  {\"first_slice\": 441897510, \"last_slice\": 441897510, \"background\": \"cpu\", \"scope\": \"nodes\"}],"
    "    \"segments\": 4000, \"segment_groups\": 3, \"segments_flagged\": 12, \"segment_excess_s\": 1.5,"
    "    \"interference_pct\": 9.1, \"interference_class\": \"medium\", \"io_period_s\": 60, \"io_time_share\": 0.25,"
    "    \"io_phase_bandwidth\": 104857600, \"write_pattern\": \"write-seek\"}},"
    "  {\"step\": \"1\", \"profiled\": true, \"advice\": [],"
    "   \"insight\": {\"light\": \"grey\", \"disturbed\": null, \"incomplete\": \"one whole slice\\u0007 only\", \"evidence\": []}},"
    "  {\"step\": \"2\", \"profiled\": true, \"advice\": [],"
    "   \"insight\": {\"light\": \"green\", \"disturbed\": false, \"slices\": 20, \"evidence\": [], \"segments\": null}},"
    "  {\"step\": \"3\", \"profiled\": true, \"advice\": [],"
    "   \"insight\": {\"light\": \"grey\", \"disturbed\": null, \"judged_by_sruns\": true, \"evidence\": []}}]}";

static void job_report_insight(void **state)
{
    (void)state;
    char *t = report(insight_json, 0);
    assert_non_null(strstr(t, "\n"
                              "Insight (was it slowed by other jobs? what to change)\n"
                              "  batch  -       not computed yet\n"
                              "  0      RED     Disturbed: lost ~12 s (15%) while other jobs' I/O peaked\n"
                              "                 (whole cluster) at 05:13:28-05:13:36, and in 1 more stretch.\n"
                              "                 MPI interference 9.1% (medium): 12 of 4000 segments slower\n"
                              "                 than their like ones, 1.5 s beyond\n"
                              "                 I/O every ~60 s, I/O in 25% of its slices at 100.0 MiB/s;\n"
                              "                 writes with seeks in between (write-seek)\n"
                              "                 high    Other jobs' I/O slowed this step: it lost 12 s (15 %).\n"
                              "                 warning ?[2JWrites of 512 B on average: 3,000 calls moved 1.5\n"
                              "                 MiB; buffer them in larger blocks, or write through a library\n"
                              "                 that aggregates them for you.\n"
                              "  1      GREY    Too little data to tell: one whole slice? only.\n"
                              "                 No periodic I/O; writes little\n"
                              "  2      GREEN   No disturbance found in 20 slices of 4 s.\n"
                              "                 No periodic I/O; writes little\n"
                              "  3      GREY    No verdict of its own: the batch script waits for its srun\n"
                              "                 steps, which are judged.\n"
                              "                 No periodic I/O; writes little\n"
                              "\n"));
    assert_null(strstr(t, "extern"));
    free(t);
    /* on a terminal, the light in colour and nothing else */
    json_error_t e;
    json_t *j = json_loads(insight_json, 0, &e);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    jsr_job(f, j, 1767600000, 1);
    fclose(f);
    json_decref(j);
    assert_non_null(strstr(text, "  0      \033[1;31mRED   \033[0m  Disturbed: "));
    assert_non_null(strstr(text, "  2      \033[32mGREEN \033[0m  No disturbance"));
    size_t escapes = 0;
    for (const char *p = text; (p = strchr(p, '\033')); p++)
        escapes++;
    assert_int_equal(escapes, 8); /* four lights, each set and reset */
    free(text);
}

static void job_never_started_and_running(void **state)
{
    (void)state;
    char *t = report("{\"id\": 5, \"name\": \"w\", \"user\": \"u\", \"cluster\": \"c\", \"state\": \"PENDING\","
                     " \"reason\": \"DependencyNeverSatisfied\", \"submit\": 1767590000, \"start\": null,"
                     " \"end\": null, \"steps\": [], \"files\": [], \"edges\": []}",
                     0);
    assert_non_null(strstr(t, "Job 5 \"w\" of u on c: PENDING\n"));
    assert_non_null(strstr(t, "  reason     DependencyNeverSatisfied\n"));
    assert_non_null(strstr(t, "  started    not yet"));
    assert_null(strstr(t, "CPU        efficiency"));
    assert_non_null(strstr(t, "Steps: none recorded yet\n"));
    assert_non_null(strstr(t, "Files: none recorded\n"));
    assert_non_null(strstr(t, "Related jobs: none of yours\n"));
    free(t);
    /* running since 100 s before "now", 50 s of CPU on 1 CPU so far */
    t = report("{\"id\": 6, \"name\": \"r\", \"user\": \"u\", \"cluster\": \"c\", \"state\": \"RUNNING\","
               " \"array_job_id\": 3, \"array_task_id\": 2, \"submit\": 1767599900, \"start\": 1767599900,"
               " \"end\": null, \"nodes\": 1, \"cpus\": 1, \"usage\": {\"cpu_ns\": 50000000000, \"profiled_steps\": 1},"
               " \"steps\": [], \"files\": [], \"edges\": []}",
               0);
    assert_non_null(strstr(t, "Job 3_2 \"r\" of u on c: RUNNING\n"));
    assert_non_null(strstr(t, "  running    for 1 min 40 s (the figures below are so far)\n"));
    assert_non_null(strstr(t, "  resources  1 node, 1 CPU\n  queue      partition -\n"));
    assert_non_null(strstr(t, "Steps: none recorded yet\n"));
    assert_non_null(strstr(t, "  CPU        efficiency 50.0%"));
    assert_non_null(strstr(t, "  memory     not measured\n"));
    free(t);
    /* the demo's job 2: 0.18 s of CPU in 2 CPUs x 2 s; a job of 0.4 s: 0 s by Slurm's clock */
    t = report("{\"id\": 2, \"name\": \"d\", \"user\": \"u\", \"cluster\": \"c\", \"state\": \"COMPLETED\","
               " \"submit\": 1767599900, \"start\": 1767599900, \"end\": 1767599902, \"nodes\": 1, \"cpus\": 2,"
               " \"usage\": {\"cpu_ns\": 180000000, \"profiled_steps\": 1}, \"steps\": [], \"files\": [], \"edges\": []}",
               0);
    assert_non_null(strstr(t, "  CPU        efficiency 4.5%: 180 ms of CPU time in 2 CPUs x 2 s\n"));
    free(t);
    t = report("{\"id\": 3, \"name\": \"d\", \"user\": \"u\", \"cluster\": \"c\", \"state\": \"COMPLETED\","
               " \"submit\": 1767599900, \"start\": 1767599900, \"end\": 1767599900, \"nodes\": 1, \"cpus\": 1,"
               " \"usage\": {\"cpu_ns\": 12000000, \"profiled_steps\": 1}, \"steps\": [], \"files\": [], \"edges\": []}",
               0);
    assert_non_null(strstr(t, "  CPU        12 ms of CPU time; no efficiency: under a second by Slurm's clock\n"));
    assert_non_null(strstr(t, ", after less than a second\n"));
    assert_null(strstr(t, "unseen I/O"));
    free(t);
    /* inlined stdio (putchar_unlocked): 3 B the kernel counted that no wrapper saw */
    t = report("{\"id\": 4, \"name\": \"d\", \"user\": \"u\", \"cluster\": \"c\", \"state\": \"COMPLETED\","
               " \"submit\": 1767599900, \"start\": 1767599900, \"end\": 1767599901, \"nodes\": 1, \"cpus\": 1,"
               " \"usage\": {\"cpu_ns\": 12000000, \"profiled_steps\": 1, \"write_bytes\": 10,"
               " \"unattributed_write_bytes\": 3}, \"steps\": [], \"files\": [], \"edges\": []}",
               0);
    assert_non_null(strstr(t, "  unseen I/O 3 B written that the kernel counted beyond what the profiler's\n"
                              "             wrappers saw (stdio inlined into the program such as\n"));
    free(t);
}

static void workflow_report(void **state)
{
    (void)state;
    char *t = report(
        "{\"workflow\": {\"id\": 7, \"cluster\": \"c\", \"user\": \"alice\", \"workflow\": \"sample\", \"jobs\": 3,"
        "  \"jobs_not_ok\": 1, \"submit\": 1767590000, \"start\": 1767590010, \"end\": 1767590130},"
        " \"t0\": 1767590000,"
        " \"job_fields\": [\"id\", \"name\", \"state\", \"submit\", \"start\", \"end\", \"steps\", \"array_job_id\","
        "  \"array_task_id\"],"
        " \"step_fields\": [\"step\", \"start\", \"end\", \"runtime_ms\", \"files\"],"
        " \"runtime_fields\": [\"compute\", \"mpi_p2p\", \"mpi_coll\", \"io_posix\", \"io_stdio\", \"io_mpiio\","
        "  \"mpi_setup\", \"cpu_wait\", \"idle\"],"
        " \"jobs\": [[11, \"gen\\u001b\", \"COMPLETED\", 0, 10000, 70000, [[\"0\", 10000, 70000, [10, 0, 0, 30]]]],"
        "          [12, \"sim\", \"FAILED\", 0, 70000, 130000, [[\"0\", 70000, 130000, [50, 40, 10]]]],"
        "          [14, \"task\", \"PENDING\", 0, null, null, [], 13, 1]],"
        " \"edges\": {\"scheduler\": [[11, 12]], \"time\": [], \"file\": [[11, 12, \"0\", \"0\", 2]]}}",
        1);
    assert_non_null(strstr(t, "Workflow 7 \"sample\" of alice on c: 3 jobs, 1 not completed\n"));
    assert_non_null(strstr(t, "  11       gen?         COMPLETED "));
    assert_non_null(strstr(t, "   00:01:00 I/O 75%\n"));
    assert_non_null(strstr(t, "  12       sim          FAILED    "));
    assert_non_null(strstr(t, "   00:01:00 compute 50%\n"));
    assert_non_null(strstr(t, "  13_1     task         PENDING    -                            - -\n"));
    assert_non_null(strstr(t, "Edges: 1 scheduler, 1 file, 0 time"));
    free(t);
}

static void step_names_table(void **state)
{
    (void)state;
    char *t = report("{\"workflow\": 7, \"step_names\": ["
                     " {\"job_name\": \"align-reads-long\", \"step_name\": \"bwa\\u001b\", \"jobs\": 12, \"steps\": 12,"
                     "  \"not_completed\": 1, \"profiled\": 12, \"elapsed_s\": 93784, \"cpu_ns\": 300000000000000,"
                     "  \"cpu_alloc_s\": 375136, \"max_rss_kib\": 3145728, \"read_bytes\": 5368709120, \"write_bytes\": 1024},"
                     " {\"job_name\": \"plot\", \"step_name\": \"python\", \"jobs\": 1, \"steps\": 1, \"not_completed\": 0,"
                     "  \"profiled\": 0, \"elapsed_s\": null, \"cpu_ns\": null, \"cpu_alloc_s\": null, \"max_rss_kib\": null,"
                     "  \"read_bytes\": null, \"write_bytes\": null}]}",
                     2);
    assert_non_null(strstr(t, "\nPer job and step name\n  job       step      jobs  !ok       time    CPU  peak mem      read   written\n"));
    assert_non_null(strstr(t, "  align-re~ bwa?        12    1 1-02:03:04  80.0%   3.0 GiB   5.0 GiB   1.0 KiB\n"));
    assert_non_null(strstr(t, "  plot      python       1    0          -      -         -       0 B       0 B\n"));
    free(t);
}

static void compare_two_jobs_by_step_name(void **state)
{
    (void)state;
    json_error_t e;
    json_t *ja = json_loads("{\"steps\": ["
                           " {\"step\": \"extern\", \"name\": \"extern\"},"
                           " {\"step\": \"batch\", \"name\": \"batch\", \"elapsed\": 500, \"start\": 1, \"end\": 501},"
                           " {\"step\": \"0\", \"name\": \"prep\", \"start\": 1, \"end\": 101, \"elapsed\": 100, \"cpus\": 2,"
                           "  \"profiled\": true, \"cpu_ns\": 100000000000, \"read_bytes\": 1024, \"write_bytes\": 0},"
                           " {\"step\": \"1\", \"name\": \"sim\", \"start\": 101, \"end\": 301, \"elapsed\": 200, \"cpus\": 4,"
                           "  \"profiled\": true, \"cpu_ns\": 800000000000, \"read_bytes\": 0, \"write_bytes\": 1048576},"
                           " {\"step\": \"2\", \"name\": \"sim\", \"start\": 301, \"end\": 401, \"elapsed\": 100, \"cpus\": 4,"
                           "  \"profiled\": false}]}",
                           0, &e);
    json_t *jb = json_loads("{\"steps\": ["
                           " {\"step\": \"0\", \"name\": \"prep\", \"start\": 1, \"end\": 151, \"elapsed\": 150, \"cpus\": 2,"
                           "  \"profiled\": true, \"cpu_ns\": 150000000000, \"read_bytes\": 1024, \"write_bytes\": 0},"
                           " {\"step\": \"1\", \"name\": \"sim\", \"start\": 151, \"end\": 251, \"elapsed\": 100, \"cpus\": 4,"
                           "  \"profiled\": true, \"cpu_ns\": 200000000000, \"read_bytes\": 0, \"write_bytes\": 2097152},"
                           " {\"step\": \"2\", \"name\": \"post\", \"start\": 251, \"end\": 261, \"elapsed\": 10, \"cpus\": 1,"
                           "  \"profiled\": true, \"cpu_ns\": 5000000000, \"read_bytes\": 0, \"write_bytes\": 0}]}",
                           0, &e);
    assert_non_null(ja);
    assert_non_null(jb);
    json_t *ra = jsr_job_rows(ja, 1000), *rb = jsr_job_rows(jb, 1000);
    /* the numbered steps only; a repeated name becomes sim#2 */
    assert_int_equal(json_array_size(ra), 3);
    assert_string_equal(json_string_value(json_object_get(json_array_get(ra, 2), "step_name")), "sim#2");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    jsr_compare(f, "job 12 \"run1\"", ra, "job 15 \"run2\"", rb, 1);
    fclose(f);
    assert_non_null(strstr(text, "A: job 12 \"run1\"\nB: job 15 \"run2\"\n\n  step     name      time A   time B  change  CPU A  CPU B     I/O A     I/O B\n"));
    assert_non_null(strstr(text, "  0        prep    00:01:40 00:02:30  +50.0%  50.0%  50.0%   1.0 KiB   1.0 KiB\n"));
    assert_non_null(strstr(text, "  1        sim     00:03:20 00:01:40  -50.0% 100.0%  50.0%   1.0 MiB   2.0 MiB\n"));
    assert_non_null(strstr(text, "  2        sim#2   00:01:40        -  only A      -      -       0 B         -\n"));
    assert_non_null(strstr(text, "  2        post           - 00:00:10  only B      -  50.0%         -       0 B\n"));
    assert_non_null(strstr(text, "  total            00:06:40 00:04:20  -35.0%"));
    free(text);
    json_decref(ra);
    json_decref(rb);
    json_decref(ja);
    json_decref(jb);
}

/* warnings from the file and scheduler edges together: the server's sentences, cleaned and
 * wrapped under the label (report() fails on a control character or a line over 79 columns) */
static void job_warnings(void **state)
{
    (void)state;
    char *t = report("{\"id\": 8, \"name\": \"r\", \"user\": \"u\", \"cluster\": \"c\", \"state\": \"COMPLETED\","
                     " \"steps\": [], \"files\": [], \"edges\": [], \"warnings\": ["
                     "  {\"kind\": \"no_dependency\", \"direction\": \"in\", \"job\": 7, \"message\":"
                     "   \"Reads /home/u/a.dat that job 7 wrote, but was queued before it ended and waits for it by no"
                     " dependency: this works by luck; add --dependency=afterok:7.\"},"
                     "  {\"kind\": \"read_while_written\", \"direction\": \"in\", \"job\": 6, \"message\":"
                     "   \"Read /home/u/\\u001b[2Jb.dat while job 6 was still writing it\"}]}",
                     0);
    assert_non_null(strstr(t, "\nWarnings (what the files and the scheduler's dependencies tell together)\n"
                              "  LUCK     Reads /home/u/a.dat that job 7 wrote, but was queued before it ended\n"
                              "           and waits for it by no dependency: this works by luck; add\n"
                              "           --dependency=afterok:7.\n"
                              "  RACE     Read /home/u/?[2Jb.dat while job 6 was still writing it\n"));
    free(t);
    t = report("{\"id\": 9, \"name\": \"r\", \"user\": \"u\", \"cluster\": \"c\", \"state\": \"COMPLETED\","
               " \"steps\": [], \"files\": [], \"edges\": [], \"warnings\": []}", 0);
    assert_null(strstr(t, "Warnings"));
    free(t);
}

int main(void)
{
    setenv("TZ", "UTC", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bytes_in_binary_units),
        cmocka_unit_test(durations_clocks_percentages),
        cmocka_unit_test(strings_lose_control_characters_and_fit),
        cmocka_unit_test(job_report_figures_and_safety),
        cmocka_unit_test(job_report_insight),
        cmocka_unit_test(job_never_started_and_running),
        cmocka_unit_test(workflow_report),
        cmocka_unit_test(step_names_table),
        cmocka_unit_test(compare_two_jobs_by_step_name),
        cmocka_unit_test(job_warnings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

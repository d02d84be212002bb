/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The job's record quota on a node: the file RECORD_DIR/job.<id>/.quota.<node>, one page, made
 * by the plugin (root) with the caps of plugstack.conf (record_quota=, record_files=) and given
 * to the job's user; mapped shared by every profiled process of the job on the node and by
 * jobscreen-collect. A record is charged when it is made or grows and discharged when the
 * collector removes it; a process that finds the quota used up is not recorded and is counted
 * under its step, and the step's bundles say so ("unrecorded"). It bounds what the profiler
 * keeps in the record area (the job's memory); the spool is bounded apart, by root, where its
 * relay writes (spank/relay.h, docs/plugin.md "Two places").
 */
#ifndef JS_RECORD_QUOTA_H
#define JS_RECORD_QUOTA_H

#include <stdint.h>

#define JS_QUOTA_MAGIC "JSQUOTA1"
#define JS_QUOTA_PREFIX ".quota."
#define JS_QUOTA_STEPS 32

struct js_quota {
    char magic[8];
    int64_t cap_bytes, cap_files;   /* set by the plugin; 0: no cap */
    int64_t bytes, files;           /* records' allocated bytes and count, now */
    struct {
        int64_t state;              /* 0 free, 1 being claimed, 2 in use */
        int64_t refused;            /* processes of this step not recorded */
        char step[48];
    } steps[JS_QUOTA_STEPS];
};
_Static_assert(sizeof(struct js_quota) <= 4096, "the quota ledger is one page");

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen plugin: the relay, root's side of collection (docs/spool.md, "Two places").
 *
 * The running processes keep their records in the record area (record_dir=, the job user's
 * directory there); jobscreen-collect, as the user, turns them into bundles in that same
 * directory. The relay, as root, moves each finished bundle into the spool's profiles/ (root's
 * alone), under a name it chooses itself, charging it to the job's share of the spool on the
 * node (spool_quota=, spool_files=): that is where the share is enforced, so nothing the
 * user's processes do can fill the spool. It never interprets a bundle: it copies bytes, and
 * of a bundle it refuses it counts the lines (one per profile) to say how many processes that
 * left unrecorded. The live snapshot is copied likewise, replaced when it changes, charged to
 * the same share (a copy replaces its predecessor in the ledger: the share holds the last
 * copy's bytes, not the sum of all), at most once every JS_LIVE_MIN_SECONDS, and less often
 * when large (JS_LIVE_BYTES_PER_SECOND); one that does not fit is not copied, and counted.
 *
 * Root files in the spool's job directory (ledgers, read and written under flock):
 *   .spool.<node>           the job's share on the node: bytes and bundles taken
 *   .relay.<step>.<node>    the step's next bundle number, what the share refused, and the
 *                           live snapshot's copy (its bytes charged, when it was made)
 * Needs no Slurm: unit-tested on its own (tests/unit/test_spank_relay.c).
 */
#ifndef JOBSCREEN_RELAY_H
#define JOBSCREEN_RELAY_H

#include <stdint.h>
#include <sys/types.h>
#include <time.h>

struct js_relay {
    int recfd;          /* RECORD_DIR/job.<id>: the user's */
    int jobfd;          /* SPOOL/job.<id>: root's (the ledgers) */
    int profilesfd;     /* SPOOL/job.<id>/profiles: root's (the bundles) */
    char step[64], node[256];
    uid_t uid;          /* the job's user: what is copied must be theirs, and the copy is too */
    gid_t gid;
    int64_t cap_bytes, cap_files; /* the job's share of the spool on the node; 0: no cap */
    /* the live snapshot last copied */
    dev_t live_dev;
    ino_t live_ino;
    struct timespec live_mtime;
    off_t live_size;
    int64_t live_min_ns; /* the least time between two copies of it: JS_LIVE_MIN_SECONDS (below) */
    /* set by a pass when the share first refuses something of the step (a bundle, a live
     * snapshot): the caller logs it where it bites; empty otherwise */
    char notice[512];
};

/* The live snapshot is copied at most once every JS_LIVE_MIN_SECONDS (live_min_ns, which the
 * plugin sets so), and one of S bytes no sooner than S / JS_LIVE_BYTES_PER_SECOND seconds after the previous copy (64 s for the
 * largest, JS_PROFILE_MAX_BYTES): what a step's snapshot costs the spool's disk and the
 * transport is bounded whatever the user's processes write. The collector writes one every
 * 15 s: its snapshots are copied as they come unless they are larger than 15 MiB. */
#define JS_LIVE_MIN_SECONDS 10
#define JS_LIVE_BYTES_PER_SECOND (1 << 20)

/* What the share refused of a step on a node, from its ledger: bundles (and the profiles in
 * them), and live snapshots not copied (larger than the share left, or than a profile can be). */
struct js_relay_refused {
    int64_t processes, bundles, bytes;
    int64_t live_snapshots, live_bytes;
};

/* One pass: every finished bundle of the step on the node into the spool (or refused and
 * counted), the live snapshot when it changed and its interval has passed. With final set
 * (the step is over and its collector done) first removes the live snapshot's copy and gives
 * its bytes back to the share (the last bundles say it all, and find room), then relays the
 * bundles and removes the tombstones. Returns the bundles moved, or -1 with the first problem
 * in err (the others are tried all the same); r->notice as above. */
int js_relay_pass(struct js_relay *r, int final, char *err, size_t errlen);

/* What the share refused of r's step on its node so far (zeros when nothing). */
void js_relay_refused(const struct js_relay *r, struct js_relay_refused *out);

/* What the removal of a job's directory in the record area did (remove.c). */
struct js_removal {
    int found;                    /* the job had a directory there */
    int64_t files, dirs, bytes;   /* removed below it (bytes: the files' sizes) */
    int64_t records;              /* of the files, records no collector turned */
    int64_t left;                 /* entries that could not be removed */
    char why[512];                /* the first of them, and why */
};

/* At the job's end on the node: its directory in the record area goes, with whatever is in it
 * at any depth. An iterative walk: no recursion, at most JS_REMOVE_OPEN_DIRS directories open
 * at once (one further up is reopened through the ".." of the one below it, checked to be the
 * directory it was, else the walk starts again from the top), no link followed, no other file
 * system and no directory of another user entered, bounded by JS_REMOVE_SECONDS. 0 when
 * nothing is left, else -1 (out says what and why). */
#define JS_REMOVE_OPEN_DIRS 16
#define JS_REMOVE_SECONDS 30
int js_relay_remove_job(const char *record_dir, uint32_t job_id, struct js_removal *out);

#endif

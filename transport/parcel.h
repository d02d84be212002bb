/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Parcels: what jobscreen-send posts and jobscreen-receive stores (docs/transport.md).
 *
 *   jobscreen-parcel 1 job.<jobid>\n
 *   <name> <size>\n<size bytes>        once per file
 *   end\n
 *
 * Names are relative to the job's directory and only of the spool's forms (docs/spool.md):
 * job.json, step.<step>.<node>.json, profiles/<step>.<node>.b<N>.json and
 * profiles/.live.<step>.<node>.json. The reader is strict: it refuses anything else with a
 * reason, before a byte is stored.
 */
#ifndef JT_PARCEL_H
#define JT_PARCEL_H

#include <stddef.h>
#include <stdint.h>

#define JT_PARCEL_MAGIC "jobscreen-parcel"
#define JT_PARCEL_VERSION 1
/* Hard bound on a whole parcel: the most max_bytes of the receiver and --parcel-max of the
 * sender may be set to. */
#define JT_PARCEL_MAX_BYTES (256LL * 1024 * 1024)
/* The largest file a parcel carries: a bundle or live snapshot, JS_PROFILE_MAX_BYTES (records
 * are at most JS_RECORD_MAX_FILE_BYTES; parcel.c checks both). */
#define JT_FILE_MAX_BYTES (64LL * 1024 * 1024)
/* What a parcel of one file holds beyond the file: the header line, the entry's line and
 * "end\n" (at most 34 + 330 + 4 bytes), rounded up. */
#define JT_PARCEL_OVERHEAD_MAX 4096
/* The receiver's default max_bytes and the sender's default --parcel-max: the largest parcel
 * of a single file. The sender never makes a larger one (it splits), so the receiver refuses
 * any larger Content-Length (413) before reading (docs/transport.md). */
#define JT_PARCEL_DEFAULT_MAX (JT_FILE_MAX_BYTES + JT_PARCEL_OVERHEAD_MAX)
/* The least a receiver's max_bytes may be: a site's lower setting of an earlier release stays
 * valid (parcels above it are refused, 413, as they were) */
#define JT_PARCEL_MIN_BOUND (1024LL * 1024)
#define JT_PARCEL_MAX_FILES 4096
/* Longest name in a parcel ("profiles/.live." + step + node + ".json"), with NUL. */
#define JT_NAME_MAX 320
#define JT_NODE_MAX 256
#define JT_REASON_MAX 512

enum jt_kind { JT_JOB_RECORD, JT_STEP_RECORD, JT_BUNDLE, JT_LIVE };

struct jt_name {
    enum jt_kind kind;
    char step[16];           /* JS_STEP_NAME_MAX */
    char node[JT_NODE_MAX];
    unsigned long bundle;    /* N of a bundle */
};

/* Parse a name of a parcel (relative to the job directory). 0, or -1 with the reason. */
int jt_name_parse(const char *name, struct jt_name *out, char *reason, size_t rsize);
/* Parse a plain file name inside profiles/ ("<s>.<n>.b<N>.json" or ".live.<s>.<n>.json"),
 * as the sender lists it. 0, or -1. */
int jt_profile_name_parse(const char *base, struct jt_name *out);
/* Largest file of a kind: records JS_RECORD_MAX_FILE_BYTES, profiles JS_PROFILE_MAX_BYTES. */
long long jt_kind_max_bytes(enum jt_kind kind);

/* Writing: a growing buffer. Each call returns 0, or -1 (out of memory, or a name the
 * reader would refuse: the writer never makes a parcel the receiver refuses). */
struct jt_buf {
    char *data;
    size_t len, cap;
};
void jt_buf_free(struct jt_buf *b);
int jt_parcel_begin(struct jt_buf *b, uint32_t job_id);
int jt_parcel_add(struct jt_buf *b, const char *name, const void *data, size_t len);
int jt_parcel_end(struct jt_buf *b);
/* What jt_parcel_add adds for a file of len bytes named name (to keep parcels bounded). */
size_t jt_parcel_entry_size(const char *name, size_t len);

/* Reading: files point into the body (not copied). */
struct jt_file {
    char name[JT_NAME_MAX];
    struct jt_name n;
    const char *data;
    size_t len;
};
struct jt_parcel {
    uint32_t job_id;
    size_t nfiles;
    struct jt_file *files;
};
/* Parse body strictly: header, every entry, "end\n" exactly at the end, no name twice,
 * every profile and live snapshot of one step-node, and a step record (at most one) of the
 * same step-node. 0, or -1 with the reason ("entry 3: name \"../x\": ..."). */
int jt_parcel_parse(const char *body, size_t len, struct jt_parcel *p, char *reason, size_t rsize);
void jt_parcel_free(struct jt_parcel *p);

/* A post (the body of one POST /receive) carries one or more parcels back to back, so that
 * one request, one credential and one round of directory fsyncs take many step-nodes. Bounds
 * on what one post makes the receiver hold (the sender keeps to them): */
#define JT_POST_MAX_PARCELS 4096
#define JT_POST_MAX_FILES 16384
struct jt_post {
    struct jt_parcel *parcels;
    size_t n, nfiles;
};
/* Parse every parcel of body, each strictly (jt_parcel_parse), with no byte after the last.
 * A refusal names the parcel ("parcel 3 (byte 5121): entry 2: ..."; for the first parcel of
 * a post, the reason of jt_parcel_parse alone). 0, or -1 with the reason. */
int jt_post_parse(const char *body, size_t len, struct jt_post *post, char *reason, size_t rsize);
void jt_post_free(struct jt_post *post);

#endif

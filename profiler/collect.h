/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen-collect's private header: a record as the collector maps it, the run's options and
 * the parts' entry points. collect.c: options, watching, the pool; collect_check.c: a record
 * loaded, checked and its end decided; collect_write.c: the profile JSON writer and the
 * mounts; collect_bundle.c: bundles, recovery, the passes and the live snapshot.
 */
#ifndef JS_COLLECT_H
#define JS_COLLECT_H

#include "js.h"
#include "bundle_series.h"
#include "jsonw.h"
#include "profile.h"

#include <dirent.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

extern const char *prog;

struct mount {
    const char *dir, *fstype;
    size_t len;
};

/* the mounts of /proc/self/mountinfo in buf (modified in place), at most max: how many */
size_t parse_mounts(char *buf, struct mount *m, size_t max);

static inline void comma(struct js_out *o) { js_out_raw(o, ",", 1); }

static inline void kv_u(struct js_out *o, const char *k, uint64_t v)
{
    comma(o);
    js_out_key(o, k);
    js_out_u64(o, v);
}

static inline void kv_s(struct js_out *o, const char *k, const char *v, size_t max)
{
    comma(o);
    js_out_key(o, k);
    js_out_str(o, v, max);
}

/* One record, mapped privately (we fold into our copy) and checked. */
struct rec {
    const char *name;
    unsigned char *m;
    size_t size;
    struct js_global *g;
    struct js_thread *threads;
    struct js_file *files;
    uint64_t totals[JS_M_COUNT]; /* ticks for the time metrics until converted */
    char end[16];
    int exit_code, signal;
    uint64_t end_ns, cpu_user_ns, cpu_sys_ns, max_rss_kib; /* of this image */
    uint64_t kc[JS_KC_COUNT];                            /* the kernel's counts of this image (kernel_io, run delay) */
    int kc_known;                                        /* kc is set */
    char missing[512];
};

struct status {
    pid_t pid;
    int status;
};

struct collect_conf {
    int dirfd;
    int final, each;
    uint64_t seen_ns;          /* --seen-ns: when the --status processes had ended */
    struct status *st;
    size_t nst;
    char prefix[400];          /* "<step>.<node>." ("" with --each and no scope: every record) */
    struct mount *mounts;
    size_t nm;
    struct js_quota *quota;    /* the job's share of the spool on the node, when there is one */
    char step[64];             /* the scope's step (for the quota's refusals) */
};
extern struct collect_conf C;

extern volatile sig_atomic_t stop;

/* collect_check.c */
int collect_bad(const char *name, const char *why); /* a message naming name; -1 */
/* Map and check a record; decide how it ended. 1: ready (ended, or reaped, or --final, or
 * live wanted), 0: still running, -1: bad (kept, message given). */
int rec_load(const char *name, struct rec *r, int live);
void rec_unload(struct rec *r);

/* collect_write.c */
/* A profile; in a bundle (bundled) without its slices, which the bundle's series sums. */
void write_profile(struct js_out *o, struct rec *r, const struct mount *mounts, size_t nm, int bundled);
/* The image's slice rows into the bundle's fold: 0, or -1 out of memory */
int fold_rows(struct js_fold *f, const struct rec *r);

/* collect_bundle.c */
long bundle_pass(void);   /* every ready record into bundles: how many, -1 on errors */
long each_pass(void);     /* --each: a profile file per ready record */
void live_snapshot(void); /* the running processes as they are now */
char **list_records(size_t *n); /* the names of the records in scope, sorted */
DIR *open_dir(void);      /* a fresh listing of the directory */

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Insight (issue 18, docs/insight.md): the methods, as pure functions over a step's figures
 * (insight_method.c, unit-tested), and the driver that reads the figures from the database and
 * writes the results (insight.c). The methods and their thresholds are documented once, in
 * docs/insight.md; the constants below are those thresholds.
 */
#ifndef PI_INSIGHT_H
#define PI_INSIGHT_H

#include <stddef.h>
#include <stdint.h>

#include "ingest_db.h"

/* the step's progress rates, per second of a slice */
enum pi_own { PI_OWN_CPU, PI_OWN_IO, PI_OWN_MPI, PI_OWN_COUNT };
/* the background's pressures: other jobs' bytes (cluster), their opens and metadata calls
 * (cluster), their MPI bytes (cluster), their CPU time on the step's nodes */
enum pi_bg { PI_BG_IO, PI_BG_META, PI_BG_MPI, PI_BG_CPU, PI_BG_COUNT };

extern const char *const pi_own_names[PI_OWN_COUNT];  /* cpu, io, mpi */
extern const char *const pi_bg_names[PI_BG_COUNT];    /* io, metadata, mpi, cpu */
extern const char *const pi_bg_scopes[PI_BG_COUNT];   /* cluster or nodes */

#define PI_IN_DROP_MIN 0.05       /* a dent: at least this far below the undisturbed rate ... */
#define PI_IN_BAND_GSD 2.0        /* ... and below it by this many geometric standard deviations */
#define PI_IN_IO_COST 1.5         /* an I/O dent: its time per byte this many times the usual ... */
#define PI_IN_IO_EXCESS 0.02      /* ... and the excess time this share of the slice's process time */
#define PI_IN_PEAK_FACTOR 2.0     /* a peak: the background at least twice its usual level ... */
#define PI_IN_MIN_SLICES 4        /* whole slices needed to judge a step by its slices */
#define PI_IN_EVIDENCE_PCT 2.0    /* time lost in disturbed slices (other jobs peaked) that makes a step disturbed */
#define PI_IN_DISTURBED_PCT 5.0   /* the segments' estimate that does (it does not know the source) */
#define PI_IN_YELLOW_PCT 7.5      /* the classes of reference 001 */
#define PI_IN_RED_PCT 15.0
#define PI_IN_MAX_STRETCHES 16
#define PI_IN_SEG_MIN_GROUP 5     /* groups smaller than this are not judged (reference 001) */
#define PI_IN_SEG_MADS 4.0
#define PI_IN_PERIOD_Z 3.0
#define PI_IN_DFT_MAX 4096        /* slices a DFT takes; longer steps are binned */
#define PI_IN_SMALL_IO 65536      /* a file's requests are small below this on average */

/* One step's slices first_slice .. first_slice + n - 1; every array has n values. The first
 * and the last slice are partial (the step started and ended inside them). */
struct pi_in_slices {
    size_t n;
    int64_t first_slice;
    double slice_s;
    double *own[PI_OWN_COUNT];
    double *bg[PI_BG_COUNT];
    double *io_bytes;   /* the step's bytes read and written per slice (periodicity, I/O cost) */
    double *io_s;       /* its seconds in I/O calls per slice, summed over its processes */
    double *procs;      /* its processes with activity in the slice */
    double *meta_ops;   /* its opens and metadata calls per slice, stdio's flushes and seeks aside (advice) */
};

struct pi_in_stretch {
    int64_t first_slice, last_slice;
    int own, bg;           /* enum pi_own, enum pi_bg */
    double own_drop;       /* mean drop of the own rate, 0..1 */
    double bg_rate, bg_base;
    double lost_s;
};

struct pi_in_disturbance {
    int judged;            /* 0: too few whole slices */
    int slices, dented, disturbed;
    double lost_s;
    int cause;             /* enum pi_bg of the largest stretch, -1 when none */
    struct pi_in_stretch stretch[PI_IN_MAX_STRETCHES];
    int nstretch;
    long stretches_dropped; /* beyond PI_IN_MAX_STRETCHES (the smallest) */
};

void pi_in_disturbance(const struct pi_in_slices *s, struct pi_in_disturbance *out);

/* One group of like MPI segments, summed over the step's processes: a log-scale histogram of
 * durations (bins of common/profile_format.h's segment histogram). */
struct pi_in_seg_group {
    size_t nbins;
    const int *bin;            /* bin indexes, ascending */
    const int64_t *count;      /* segments in each */
    double (*bin_ns)(int bin); /* a representative duration of a bin */
};

struct pi_in_segments {
    long long segments, flagged;
    int groups_judged;
    double excess_ns;
};

/* Flags, group by group, the segments slower than median + 4 MAD and sums their time beyond it. */
void pi_in_segments(const struct pi_in_seg_group *g, size_t ngroups, struct pi_in_segments *out);

struct pi_in_period {
    int found;
    double period_s, z, sigma_vol, sigma_time, time_share, phase_bandwidth;
};

/* Dominant period of bytes per slice x[0..n-1] (reference 004). */
void pi_in_period(const double *x, size_t n, double slice_s, struct pi_in_period *out);

/* The write pattern of a step from its written files: per process and file, opens, write
 * calls and bytes; and the step's metadata calls and opens. NULL when it writes too little. */
struct pi_in_written {
    long long opens, writes, bytes;
};
const char *pi_in_write_pattern(const struct pi_in_written *w, size_t n, long long meta_calls, long long open_calls);

/* The figures the advice rules read. Times in seconds. */
struct pi_in_figures {
    double wall_s, slice_s;
    long long processes, ranks, num_cpus;
    long long read_calls, read_bytes, write_calls, write_bytes, opens, meta_calls;
    /* the files read or written in small requests (less than PI_IN_SMALL_IO bytes on average) */
    long long small_read_calls, small_read_bytes, small_read_files;
    long long small_write_calls, small_write_bytes, small_write_files;
    double compute_s, io_s, mpi_s, cpu_wait_s, idle_s, cpu_s;
    double rank_compute_max, rank_compute_mean;
    long long rank_compute_max_rank;
    double meta_peak_per_s;
    int64_t meta_peak_slice;
    long long sync_calls;       /* fsync and the like, O_SYNC writes (profile format 8): never metadata */
    double sync_s;              /* their time, part of io_s */
    /* the batch step of a job that ran sruns waits for them: its allocation is judged by the
     * job's steps together (their CPU time over the job's wall time and CPUs) */
    int batch;
    long long job_steps, job_steps_unprofiled, job_cpus;
    double job_cpu_s, job_wall_s;
    int disturbed;              /* from the verdict: 1, 0, -1 unknown */
    double lost_pct;
    const char *cause;
};

/* The verdict of a step from its two estimates (percent of its run; negative: not made) and
 * the cause of its largest disturbed stretch (enum pi_bg, -1 when none). The batch step of a
 * job that ran sruns gets none (by_sruns): it waits for them, they are judged, and whatever
 * slowed them would be read a second time in the shell that waits (issue 36). */
struct pi_in_verdict {
    int by_sruns;
    int disturbed;              /* 1, 0, -1 unknown (or by_sruns) */
    double estimate;            /* the larger estimate, -1 when none (or by_sruns) */
    const char *light;          /* pi_in_light of estimate */
    const char *cause;          /* pi_bg_names[cause] for a disturbed step, else NULL */
};
void pi_in_judge(const struct pi_in_figures *f, double lost_pct, double interference_pct, int cause,
                 struct pi_in_verdict *v);

#define PI_ADVICE_MAX 12
struct pi_in_advice {
    const char *code, *severity;
    char message[512];
    char figures[512];          /* a JSON object */
};

/* A duration for a sentence: "65 s", "2.5 s", "380 ms" (sub-second times to the millisecond,
 * never "0 s" for a time above zero). Returns buf. */
const char *pi_in_seconds(double s, char *buf, size_t cap);

/* The advice that applies, up to PI_ADVICE_MAX; returns how many. */
int pi_in_advise(const struct pi_in_figures *f, struct pi_in_advice *out);

/* the light of an estimate (percent of the run lost), grey when unknown (negative) */
const char *pi_in_light(double pct);

/* The longest step judged by its slices: a week of 4 s slices (the viewer's limit too). */
#define PI_IN_SLICES_MAX (7 * 21600)

/* A step's slices as the methods read them, from the stored series (insight_series.c): the
 * queries of the step key (cluster id, job id, step) added to a batch (dbutil.h), and once it
 * has run, from their results (results[0] the first of them) its slices first .. last:
 * PI_DB_OK with s's arrays in *mem (to free), or PI_DB_FAIL after logging a series that does
 * not decode. */
struct dbu_batch;
void pi_in_series_queries(struct dbu_batch *b, const char *const key[3]);
int pi_in_series_slices(PGresult *const *results, const char *const key[3], int64_t first, int64_t last,
                        double slice_s, struct pi_in_slices *s, double **mem);

/* The driver (insight.c): compute the steps due in js_data.insight_pending (rested settle
 * seconds; every queued one, due or not, when settle < 0), at most a batch and a few seconds.
 * Returns PI_DB_OK or an error of ingest_db.h; *done and *failed count the steps, *queued says how
 * many are left in the queue. */
int pi_db_insight(struct pi_db *db, int settle_seconds, long *done, long *failed, long *queued);

#endif

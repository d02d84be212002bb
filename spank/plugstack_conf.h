/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen plugin: what does not need Slurm (and is unit-tested without it): the
 * plugstack.conf arguments, the profiling decision, LD_PRELOAD editing.
 */
#ifndef JOBSCREEN_PLUGSTACK_CONF_H
#define JOBSCREEN_PLUGSTACK_CONF_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define JS_LIST_MAX 1024

/* plugstack.conf arguments (docs/plugin.md) */
struct js_conf {
    char profiler[PATH_MAX];   /* profiler=PATH; empty: no profiling */
    char collector[PATH_MAX];  /* collector=PATH: jobscreen-collect (default: the installed one) */
    char spool[PATH_MAX];      /* spool=DIR (required) */
    char record_dir[PATH_MAX]; /* record_dir=DIR: where running processes keep their records */
    int slice_seconds;         /* slice=N (1..3600, default 4) */
    int default_on;            /* default=on|off */
    char exclude_users[JS_LIST_MAX];      /* exclude_users=NAME|UID,... */
    char exclude_partitions[JS_LIST_MAX]; /* exclude_partitions=NAME,... */
    char exclude_exe[JS_LIST_MAX];        /* exclude_exe=PATTERN,... (fnmatch, on argv[0] and its basename) */
    int fail_on_error;         /* fail_on_error=yes|no (default no) */
    int64_t spool_quota;       /* spool_quota=SIZE: bytes of profiles in the spool per job and node (0: no cap) */
    int64_t spool_files;       /* spool_files=N: bundles of profiles in the spool per job and node (0: no cap) */
    int64_t record_quota;      /* record_quota=SIZE: bytes of records at once per job and node (0: no cap) */
    int64_t record_files;      /* record_files=N: records at once per job and node (0: no cap) */
    char nvml[PATH_MAX];       /* nvml=LIBRARY: NVML for the step's GPUs (docs/gpu.md); "none": off */
    char powercap[PATH_MAX];   /* powercap=DIR: the powercap root for CPU energy; "none": off */
};

#define JS_RECORD_DIR_DEFAULT "/run/jobscreen"
#define JS_SPOOL_QUOTA_DEFAULT (1LL << 30)
#define JS_SPOOL_FILES_DEFAULT 10000
#define JS_RECORD_QUOTA_DEFAULT (1LL << 30)
#define JS_RECORD_FILES_DEFAULT 10000
#define JS_NVML_DEFAULT "libnvidia-ml.so.1"
#define JS_POWERCAP_DEFAULT "/sys/class/powercap"

/* A whole number, with a K/M/G/T (binary) suffix when suffix is set; -1 when it is not one. */
int64_t js_parse_size(const char *s, int suffix);

/* Parse the arguments into conf (defaults first).  Returns 0, or -1 with the first bad
 * argument named in err ("unknown argument 'x=1'", "slice=0: not a whole number of seconds
 * between 1 and 3600"). */
int js_conf_parse(struct js_conf *conf, int ac, char **av, char *err, size_t errlen);

/* "%n" in spool=, record_dir=, nvml= and powercap= becomes the node's name (as in slurm.conf's SlurmdSpoolDir):
 * several slurmd on one machine keep apart. -1 with err when a path gets too long. */
int js_conf_expand_node(struct js_conf *conf, const char *node, char *err, size_t errlen);

/* 1/true/yes/on -> 1, 0/false/no/off -> 0, else -1 */
int js_parse_bool(const char *s);

/* Is item one of the comma-separated names in list? */
int js_list_has(const char *list, const char *item);

/* Does exe (argv[0]) match one of the comma-separated fnmatch patterns in list, as given or
 * by its base name? */
int js_list_match_exe(const char *list, const char *exe);

/* What decides whether a step is profiled.  NULL strings are unknown. */
struct js_decision_in {
    const struct js_conf *conf;
    int special_step;          /* extern step: never profiled */
    int opt_no_profile;        /* --no-profile on srun/sbatch/salloc */
    const char *env_no_profile; /* JOBSCREEN_NO_PROFILE in the job's environment */
    const char *user;
    uid_t uid;
    const char *partition;
    const char *exe;           /* argv[0] of the step */
    int profiler_usable;       /* the profiler library exists and is readable */
};

/* The reason (one of js_profile_reasons): "on" means profile. */
const char *js_decide(const struct js_decision_in *in);

/* Does LD_PRELOAD value ld hold lib (elements separated by ':' or ' ')? */
int js_preload_has(const char *ld, const char *lib);

/* ld with lib added at the end once (unchanged when already there) into out.
 * Returns 0, -1 when it does not fit. */
int js_preload_add(const char *ld, const char *lib, char *out, size_t size);

/* ld without any element equal to lib, into out (empty when nothing is left). */
int js_preload_remove(const char *ld, const char *lib, char *out, size_t size);

/* Whether path can be preloaded into a task of this machine: a regular file readable by all
 * that is an ELF shared object (no interpreter: not an executable) of the same class, byte
 * order and machine as the running program (slurmstepd). Anything else would make ld.so write
 * "cannot be preloaded ... ignored" into every task's stderr. 0, or -1 with why ("not an ELF
 * file", "a 32-bit ELF object, the tasks are 64-bit", ...). */
int js_profiler_check(const char *path, char *why, size_t whysize);

#endif

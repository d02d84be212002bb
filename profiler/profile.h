/* The state of one process image and the writer of its profile (profile.c). */
#ifndef JS_PROFILE_H
#define JS_PROFILE_H

#include <stdint.h>

#include "profile_format.h"
#include "slices.h"

struct js_global {
    char dir[4096];
    size_t dir_len;
    char cluster[256], step[64], node[256];
    uint64_t job_id;
    int64_t task_id;
    int32_t slice_seconds;
    const char *origin;   /* "start" or "fork" */
    const char *end;      /* "exit", "exec", "_exit" */
    int exit_code;        /* -1 until known (exit(), _exit() wrappers) */
    uint64_t start_ns, end_ns;
    unsigned threads_live, threads_peak, threads_seen;
    uint64_t totals[JS_M_COUNT];
    struct js_slices slices;
    int written;
    char published[4200]; /* path of the profile this image published */
    const char *err_what;
    int err_errno, err_reported;
};

extern struct js_global js_g;
extern int (*js_real_unlink)(const char *);
extern int (*js_real_link)(const char *, const char *);
extern int (*js_real_rename)(const char *, const char *);

uint64_t js_now_ns(void);
int js_profile_write(void);       /* 0 when published; else the error is noted */
void js_note_error(const char *what, int err);
void js_report_error(void);
int js_hb_start(void);
void js_hb_halt(int join);
int js_hb_is_running(void);

/* files.c */
int js_files_lock(void);
void js_files_unlock(void);
void js_files_reinit_lock(void);
unsigned js_files_in_use(void);

#endif

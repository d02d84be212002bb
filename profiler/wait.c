/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The wait family: a child we reap leaves its status (and, through wait4, its CPU time and peak
 * memory) in its record, so that a process killed by a signal, which cannot say so itself,
 * still tells how it ended. The caller sees exactly what the real call returns.
 */
#include "config.h"

#include "js.h"
#include "profile.h"

#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

static void reaped(pid_t pid, int status, const struct rusage *ru)
{
    if (pid > 0 && (WIFEXITED(status) || WIFSIGNALED(status)))
        js_rec_note_reaped(pid, status, ru);
}

JS_EXPORT pid_t wait4(pid_t pid, int *status, int options, struct rusage *ru)
{
    JS_REAL(pid_t, wait4, (pid_t, int *, int, struct rusage *));
    if (!js_on)
        return real_wait4(pid, status, options, ru);
    int st = 0;
    struct rusage own;
    struct rusage *r = ru ? ru : &own;
    pid_t got = real_wait4(pid, &st, options, r);
    if (got > 0) {
        if (status)
            *status = st;
        reaped(got, st, r);
    }
    return got;
}

JS_EXPORT pid_t waitpid(pid_t pid, int *status, int options)
{
    JS_REAL(pid_t, waitpid, (pid_t, int *, int));
    if (!js_on)
        return real_waitpid(pid, status, options);
    return wait4(pid, status, options, NULL);
}

JS_EXPORT pid_t wait(int *status)
{
    JS_REAL(pid_t, wait, (int *));
    if (!js_on)
        return real_wait(status);
    return wait4(-1, status, 0, NULL);
}

JS_EXPORT pid_t wait3(int *status, int options, struct rusage *ru)
{
    JS_REAL(pid_t, wait3, (int *, int, struct rusage *));
    if (!js_on)
        return real_wait3(status, options, ru);
    return wait4(-1, status, options, ru);
}

JS_EXPORT int waitid(idtype_t idtype, id_t id, siginfo_t *info, int options)
{
    JS_REAL(int, waitid, (idtype_t, id_t, siginfo_t *, int));
    int rc = real_waitid(idtype, id, info, options);
    if (rc == 0 && js_on && info && !(options & WNOWAIT) && info->si_pid > 0) {
        if (info->si_code == CLD_EXITED)
            reaped(info->si_pid, (info->si_status & 0xff) << 8, NULL);
        else if (info->si_code == CLD_KILLED || info->si_code == CLD_DUMPED)
            reaped(info->si_pid, (info->si_status & 0x7f) | (info->si_code == CLD_DUMPED ? 0x80 : 0), NULL);
    }
    return rc;
}

/* glibc's other names of the same functions (tests/unit/profiler-exports.sh) */
pid_t __wait(int *status);
pid_t __waitpid(pid_t pid, int *status, int options);
extern __typeof(wait) __wait JS_EXPORT __attribute__((alias("wait")));
extern __typeof(waitpid) __waitpid JS_EXPORT __attribute__((alias("waitpid")));

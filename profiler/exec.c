/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ends of an image and the calls that need the heartbeat out of the way.
 * exec: the profile is written just before; if exec returns, it is taken back and the image
 * goes on recording. _exit/_Exit: written first (the destructor will not run). A vfork child
 * (pid differs from the recorded one, memory shared with the parent) writes nothing.
 * unshare/setns of namespaces that need a single-threaded caller: the heartbeat thread is
 * stopped around the call and started again, so the program sees what it would without us.
 */
#undef _FORTIFY_SOURCE
#include "config.h"

#include "js.h"
#include "profile.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

extern char **environ;

#define JS_EXEC(name, params, args) \
    JS_EXPORT int name params \
    { \
        JS_REAL(int, name, params); \
        int w = js_recording_here(); \
        if (w) \
            js_end("exec"); \
        int r = real_##name args; \
        if (w) \
            js_exec_failed(); \
        return r; \
    }
JS_EXEC(execve, (const char *p, char *const a[], char *const e[]), (p, a, e))
JS_EXEC(execv, (const char *p, char *const a[]), (p, a))
JS_EXEC(execvp, (const char *p, char *const a[]), (p, a))
JS_EXEC(execvpe, (const char *p, char *const a[], char *const e[]), (p, a, e))
JS_EXEC(fexecve, (int fd, char *const a[], char *const e[]), (fd, a, e))
JS_EXEC(execveat, (int d, const char *p, char *const a[], char *const e[], int f), (d, p, a, e, f))

/* execl family: collect the arguments, then the v-form (ours, which writes the profile) */
#define JS_COLLECT(first, ap, argv) \
    size_t n_ = 1; \
    va_list c_; \
    va_copy(c_, ap); \
    while (va_arg(c_, char *) != NULL) \
        n_++; \
    va_end(c_); \
    char *argv[n_ + 1]; \
    argv[0] = (char *)(first); \
    for (size_t i_ = 1; i_ <= n_; i_++) \
        argv[i_] = va_arg(ap, char *)

JS_EXPORT int execl(const char *p, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    JS_COLLECT(arg, ap, argv);
    va_end(ap);
    return execv(p, argv);
}

JS_EXPORT int execlp(const char *p, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    JS_COLLECT(arg, ap, argv);
    va_end(ap);
    return execvp(p, argv);
}

JS_EXPORT int execle(const char *p, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    JS_COLLECT(arg, ap, argv);
    char *const *envp = va_arg(ap, char *const *);
    va_end(ap);
    return execve(p, argv, envp);
}

/* main's return value is the exit status that exit() is then called with inside libc, where no
 * wrapper sees it: the program's main is called through ours, which notes it. */
typedef int (*js_main_fn)(int, char **, char **);
static js_main_fn js_program_main;

/* The status this image is about to exit with, into its record (not a vfork child's). */
static void note_exit_status(int status)
{
    if (js_on && getpid() == js_pid)
        js_g->exit_code = status & 0xff;
}

static int js_main(int argc, char **argv, char **envp)
{
    int rc = js_program_main(argc, argv, envp);
    note_exit_status(rc);
    return rc;
}

JS_EXPORT int __libc_start_main(js_main_fn main_fn, int argc, char **argv, void (*init)(void), void (*fini)(void),
                                void (*rtld_fini)(void), void *stack_end);
JS_EXPORT int __libc_start_main(js_main_fn main_fn, int argc, char **argv, void (*init)(void), void (*fini)(void),
                                void (*rtld_fini)(void), void *stack_end)
{
    JS_REAL(int, __libc_start_main, (js_main_fn, int, char **, void (*)(void), void (*)(void), void (*)(void), void *));
    js_program_main = main_fn;
    return real___libc_start_main(js_main, argc, argv, init, fini, rtld_fini, stack_end);
}

JS_EXPORT void exit(int status)
{
    JS_REAL(void, exit, (int));
    note_exit_status(status);
    real_exit(status);
    __builtin_unreachable();
}

JS_EXPORT void _exit(int status)
{
    JS_REAL(void, _exit, (int));
    note_exit_status(status);
    js_end("_exit");
    real__exit(status);
    __builtin_unreachable();
}

JS_EXPORT void _Exit(int status)
{
    JS_REAL(void, _Exit, (int));
    note_exit_status(status);
    js_end("_exit");
    real__Exit(status);
    __builtin_unreachable();
}

#define JS_SINGLE_THREAD_NS (CLONE_NEWUSER | CLONE_NEWNS | CLONE_FS)

JS_EXPORT int unshare(int flags)
{
    JS_REAL(int, unshare, (int));
    int stop = js_on && (flags & JS_SINGLE_THREAD_NS) && js_hb_is_running() && getpid() == js_pid;
    if (stop)
        js_hb_halt(1);
    int r = real_unshare(flags);
    if (stop) {
        int e = errno;
        js_hb_start();
        errno = e;
    }
    return r;
}

JS_EXPORT int setns(int fd, int nstype)
{
    JS_REAL(int, setns, (int, int));
    int stop = js_on && (nstype == 0 || (nstype & JS_SINGLE_THREAD_NS)) && js_hb_is_running() && getpid() == js_pid;
    if (stop)
        js_hb_halt(1);
    int r = real_setns(fd, nstype);
    if (stop) {
        int e = errno;
        js_hb_start();
        errno = e;
    }
    return r;
}

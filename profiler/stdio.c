/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stdio wrappers. glibc's stdio reaches the kernel through internal calls that do not pass
 * through our POSIX wrappers, so a stdio request is counted once, here. Per-file counts go to
 * the entry of the stream's descriptor (the fopen-ed file's "stdio" entry).
 */
#undef _FORTIFY_SOURCE
#include "config.h"

#include "js.h"
#include "modules.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#undef fread_unlocked
#undef fwrite_unlocked
#undef getc
#undef putc
#undef putchar
#undef getchar
#undef fgetc_unlocked
#undef fputc_unlocked
#undef getc_unlocked
#undef putc_unlocked
#undef getchar_unlocked
#undef putchar_unlocked
#undef getwc
#undef putwc
size_t __fread_chk(void *p, size_t bl, size_t s, size_t n, FILE *fp);
char *__fgets_chk(char *p, size_t bl, int n, FILE *fp);

static inline void after_io(struct js_thread *t, FILE *fp, uint64_t bytes, int wr, uint64_t t0)
{
    if (t->in_mpi)
        return;
    js_add(t, wr ? JS_M_STDIO_WRITE_CALLS : JS_M_STDIO_READ_CALLS, 1);
    js_add(t, wr ? JS_M_STDIO_WRITE_BYTES : JS_M_STDIO_READ_BYTES, bytes);
    uint64_t dt = js_ticks() - t0;
    int fd = -1;
    if (fp) {
        int e = errno;
        fd = fileno_unlocked(fp);
        errno = e;
    }
    struct js_file *f = js_fd_file_or_adopt(fd); /* a stream on a pipe or a terminal waits (js.h) */
    if (f != NULL || !js_fd_waits_on(fd))
        js_add(t, JS_M_STDIO_NS, dt);
    if (f) {
        js_fadd(wr ? &f->write_calls : &f->read_calls, 1);
        js_fadd(wr ? &f->write_bytes : &f->read_bytes, bytes);
    }
}

/* Body of a stdio read or write wrapper: CALL computes r, BYTES its byte count from r. */
#define JS_STDIO(rtype, name, params, fp, wr, call, bytes) \
    JS_EXPORT rtype name params \
    { \
        JS_REAL(rtype, name, params); \
        struct js_thread *t = js_self(); \
        if (!t) \
            return call; \
        uint64_t t0 = js_ticks(); \
        rtype r = call; \
        after_io(t, fp, (bytes), wr, t0); \
        return r; \
    }

JS_STDIO(size_t, fread, (void *p, size_t s, size_t n, FILE *fp), fp, 0, real_fread(p, s, n, fp), r * s)
JS_STDIO(size_t, fwrite, (const void *p, size_t s, size_t n, FILE *fp), fp, 1, real_fwrite(p, s, n, fp), r * s)
JS_STDIO(size_t, fread_unlocked, (void *p, size_t s, size_t n, FILE *fp), fp, 0, real_fread_unlocked(p, s, n, fp), r * s)
JS_STDIO(size_t, fwrite_unlocked, (const void *p, size_t s, size_t n, FILE *fp), fp, 1, real_fwrite_unlocked(p, s, n, fp), r * s)
JS_STDIO(size_t, __fread_chk, (void *p, size_t bl, size_t s, size_t n, FILE *fp), fp, 0, real___fread_chk(p, bl, s, n, fp), r * s)
JS_STDIO(char *, fgets, (char *p, int n, FILE *fp), fp, 0, real_fgets(p, n, fp), r ? strlen(r) : 0)
JS_STDIO(char *, __fgets_chk, (char *p, size_t bl, int n, FILE *fp), fp, 0, real___fgets_chk(p, bl, n, fp), r ? strlen(r) : 0)
JS_STDIO(int, fgetc, (FILE *fp), fp, 0, real_fgetc(fp), r != EOF)
JS_STDIO(int, getc, (FILE *fp), fp, 0, real_getc(fp), r != EOF)
JS_STDIO(ssize_t, getline, (char **p, size_t *n, FILE *fp), fp, 0, real_getline(p, n, fp), r > 0 ? (uint64_t)r : 0)
JS_STDIO(ssize_t, getdelim, (char **p, size_t *n, int d, FILE *fp), fp, 0, real_getdelim(p, n, d, fp), r > 0 ? (uint64_t)r : 0)
JS_STDIO(int, fputc, (int c, FILE *fp), fp, 1, real_fputc(c, fp), r != EOF)
JS_STDIO(int, putc, (int c, FILE *fp), fp, 1, real_putc(c, fp), r != EOF)
JS_STDIO(int, putchar, (int c), stdout, 1, real_putchar(c), r != EOF)
JS_STDIO(int, fputs, (const char *s, FILE *fp), fp, 1, real_fputs(s, fp), r >= 0 ? strlen(s) : 0)
JS_STDIO(int, puts, (const char *s), stdout, 1, real_puts(s), r >= 0 ? strlen(s) + 1 : 0)
JS_STDIO(int, vfprintf, (FILE *fp, const char *f, va_list ap), fp, 1, real_vfprintf(fp, f, ap), r > 0 ? (uint64_t)r : 0)
JS_STDIO(int, vprintf, (const char *f, va_list ap), stdout, 1, real_vprintf(f, ap), r > 0 ? (uint64_t)r : 0)
JS_STDIO(int, __vfprintf_chk, (FILE *fp, int fl, const char *f, va_list ap), fp, 1, real___vfprintf_chk(fp, fl, f, ap), r > 0 ? (uint64_t)r : 0)
JS_STDIO(int, __vprintf_chk, (int fl, const char *f, va_list ap), stdout, 1, real___vprintf_chk(fl, f, ap), r > 0 ? (uint64_t)r : 0)

/* the _unlocked forms, called as functions (glibc's inline macros of getc_unlocked and
 * putc_unlocked reach no function until the buffer is empty or full: not seen) */
JS_STDIO(int, fgetc_unlocked, (FILE *fp), fp, 0, real_fgetc_unlocked(fp), r != EOF)
JS_STDIO(int, getc_unlocked, (FILE *fp), fp, 0, real_getc_unlocked(fp), r != EOF)
JS_STDIO(int, getchar, (void), stdin, 0, real_getchar(), r != EOF)
JS_STDIO(int, getchar_unlocked, (void), stdin, 0, real_getchar_unlocked(), r != EOF)
JS_STDIO(int, fputc_unlocked, (int c, FILE *fp), fp, 1, real_fputc_unlocked(c, fp), r != EOF)
JS_STDIO(int, putc_unlocked, (int c, FILE *fp), fp, 1, real_putc_unlocked(c, fp), r != EOF)
JS_STDIO(int, putchar_unlocked, (int c), stdout, 1, real_putchar_unlocked(c), r != EOF)
JS_STDIO(char *, fgets_unlocked, (char *p, int n, FILE *fp), fp, 0, real_fgets_unlocked(p, n, fp), r ? strlen(r) : 0)
JS_STDIO(int, fputs_unlocked, (const char *s, FILE *fp), fp, 1, real_fputs_unlocked(s, fp), r >= 0 ? strlen(s) : 0)

/* Wide characters: the bytes in the stream's external encoding are not known here, so each
 * character counts as one byte (exact for ASCII text, fewer than the bytes for multibyte UTF-8). */
JS_STDIO(wint_t, fgetwc, (FILE *fp), fp, 0, real_fgetwc(fp), r != WEOF)
JS_STDIO(wint_t, getwc, (FILE *fp), fp, 0, real_getwc(fp), r != WEOF)
JS_STDIO(wint_t, fgetwc_unlocked, (FILE *fp), fp, 0, real_fgetwc_unlocked(fp), r != WEOF)
JS_STDIO(wint_t, getwc_unlocked, (FILE *fp), fp, 0, real_getwc_unlocked(fp), r != WEOF)
JS_STDIO(wint_t, getwchar, (void), stdin, 0, real_getwchar(), r != WEOF)
JS_STDIO(wint_t, getwchar_unlocked, (void), stdin, 0, real_getwchar_unlocked(), r != WEOF)
JS_STDIO(wchar_t *, fgetws, (wchar_t *p, int n, FILE *fp), fp, 0, real_fgetws(p, n, fp), r ? wcslen(r) : 0)
JS_STDIO(wchar_t *, fgetws_unlocked, (wchar_t *p, int n, FILE *fp), fp, 0, real_fgetws_unlocked(p, n, fp), r ? wcslen(r) : 0)
JS_STDIO(wint_t, fputwc, (wchar_t c, FILE *fp), fp, 1, real_fputwc(c, fp), r != WEOF)
JS_STDIO(wint_t, putwc, (wchar_t c, FILE *fp), fp, 1, real_putwc(c, fp), r != WEOF)
JS_STDIO(wint_t, fputwc_unlocked, (wchar_t c, FILE *fp), fp, 1, real_fputwc_unlocked(c, fp), r != WEOF)
JS_STDIO(wint_t, putwc_unlocked, (wchar_t c, FILE *fp), fp, 1, real_putwc_unlocked(c, fp), r != WEOF)
JS_STDIO(wint_t, putwchar, (wchar_t c), stdout, 1, real_putwchar(c), r != WEOF)
JS_STDIO(wint_t, putwchar_unlocked, (wchar_t c), stdout, 1, real_putwchar_unlocked(c), r != WEOF)
JS_STDIO(int, fputws, (const wchar_t *s, FILE *fp), fp, 1, real_fputws(s, fp), r >= 0 ? wcslen(s) : 0)
JS_STDIO(int, fputws_unlocked, (const wchar_t *s, FILE *fp), fp, 1, real_fputws_unlocked(s, fp), r >= 0 ? wcslen(s) : 0)
JS_STDIO(int, vfwprintf, (FILE *fp, const wchar_t *f, va_list ap), fp, 1, real_vfwprintf(fp, f, ap), r > 0 ? (uint64_t)r : 0)
JS_STDIO(int, vwprintf, (const wchar_t *f, va_list ap), stdout, 1, real_vwprintf(f, ap), r > 0 ? (uint64_t)r : 0)
int __vfwprintf_chk(FILE *fp, int fl, const wchar_t *f, va_list ap);
int __vwprintf_chk(int fl, const wchar_t *f, va_list ap);
int __fwprintf_chk(FILE *fp, int fl, const wchar_t *f, ...);
int __wprintf_chk(int fl, const wchar_t *f, ...);
JS_STDIO(int, __vfwprintf_chk, (FILE *fp, int fl, const wchar_t *f, va_list ap), fp, 1, real___vfwprintf_chk(fp, fl, f, ap), r > 0 ? (uint64_t)r : 0)
JS_STDIO(int, __vwprintf_chk, (int fl, const wchar_t *f, va_list ap), stdout, 1, real___vwprintf_chk(fl, f, ap), r > 0 ? (uint64_t)r : 0)

/* The scanf family: one read call; its bytes are what it took from the stream's buffer, the read
 * pointer's move (glibc's FILE is public: _IO_read_ptr/_IO_read_end/_IO_read_base), across one
 * refill of the buffer at most: exact unless one call consumes more than the stream's buffer
 * (4 KiB or the file system's block). The wide forms count the call only (their byte buffer is
 * converted ahead of what they consume). */
struct js_rpos {
    const char *ptr, *end, *base;
};
static inline struct js_rpos rpos(FILE *fp)
{
    struct js_rpos p = { fp->_IO_read_ptr, fp->_IO_read_end, fp->_IO_read_base };
    return p;
}
static uint64_t consumed(FILE *fp, struct js_rpos a)
{
    struct js_rpos b = rpos(fp);
    if (b.base == a.base && b.end == a.end && b.ptr >= a.ptr)
        return (uint64_t)(b.ptr - a.ptr);
    uint64_t n = a.end > a.ptr ? (uint64_t)(a.end - a.ptr) : 0; /* the rest of the old buffer */
    return n + (b.ptr > b.base ? (uint64_t)(b.ptr - b.base) : 0);
}

/* <stdio.h> binds the C names fscanf etc. to __isoc99_fscanf etc. in C99 mode: each wrapper
 * here has a C name of its own and the exported name as its assembler label. */
#define JS_VSCANF(cname, sym, params, fpx, args) \
    int cname params __asm__(sym); \
    JS_EXPORT int cname params \
    { \
        static int(*real) params; \
        if (JS_UNLIKELY(real == NULL)) \
            real = (int(*) params)js_next(sym); \
        struct js_thread *t = js_self(); \
        FILE *sfp = (fpx); \
        if (!t || !sfp) \
            return real args; \
        struct js_rpos a = rpos(sfp); \
        uint64_t t0 = js_ticks(); \
        int r = real args; \
        after_io(t, sfp, consumed(sfp, a), 0, t0); \
        return r; \
    }
JS_VSCANF(js_vfscanf, "vfscanf", (FILE *fp, const char *f, va_list ap), fp, (fp, f, ap))
JS_VSCANF(js_isoc99_vfscanf, "__isoc99_vfscanf", (FILE *fp, const char *f, va_list ap), fp, (fp, f, ap))
JS_VSCANF(js_vscanf, "vscanf", (const char *f, va_list ap), stdin, (f, ap))
JS_VSCANF(js_isoc99_vscanf, "__isoc99_vscanf", (const char *f, va_list ap), stdin, (f, ap))

#define JS_SCANF(cname, sym, vname, params, first, vargs) \
    int cname params __asm__(sym); \
    JS_EXPORT int cname params \
    { \
        va_list ap; \
        va_start(ap, f); \
        int r = vname vargs; \
        va_end(ap); \
        return r; \
    }
JS_SCANF(js_fscanf, "fscanf", js_vfscanf, (FILE *fp, const char *f, ...), f, (fp, f, ap))
JS_SCANF(js_isoc99_fscanf, "__isoc99_fscanf", js_isoc99_vfscanf, (FILE *fp, const char *f, ...), f, (fp, f, ap))
JS_SCANF(js_scanf, "scanf", js_vscanf, (const char *f, ...), f, (f, ap))
JS_SCANF(js_isoc99_scanf, "__isoc99_scanf", js_isoc99_vscanf, (const char *f, ...), f, (f, ap))

/* the wide forms: the call only */
#define JS_VWSCANF(cname, sym, params, fpx, args) \
    int cname params __asm__(sym); \
    JS_EXPORT int cname params \
    { \
        static int(*real) params; \
        if (JS_UNLIKELY(real == NULL)) \
            real = (int(*) params)js_next(sym); \
        struct js_thread *t = js_self(); \
        if (!t) \
            return real args; \
        uint64_t t0 = js_ticks(); \
        int r = real args; \
        after_io(t, (fpx), 0, 0, t0); \
        return r; \
    }
JS_VWSCANF(js_vfwscanf, "vfwscanf", (FILE *fp, const wchar_t *f, va_list ap), fp, (fp, f, ap))
JS_VWSCANF(js_isoc99_vfwscanf, "__isoc99_vfwscanf", (FILE *fp, const wchar_t *f, va_list ap), fp, (fp, f, ap))
JS_SCANF(js_fwscanf, "fwscanf", js_vfwscanf, (FILE *fp, const wchar_t *f, ...), f, (fp, f, ap))
JS_SCANF(js_isoc99_fwscanf, "__isoc99_fwscanf", js_isoc99_vfwscanf, (FILE *fp, const wchar_t *f, ...), f, (fp, f, ap))

/* the variadic ones go through the v-forms of the next library */
#define JS_PRINTF(name, vname, params, fp, vparams, vargs) \
    JS_EXPORT int name params \
    { \
        JS_REAL(int, vname, vparams); \
        va_list ap; \
        va_start(ap, f); \
        struct js_thread *t = js_self(); \
        if (!t) { \
            int r0 = real_##vname vargs; \
            va_end(ap); \
            return r0; \
        } \
        uint64_t t0 = js_ticks(); \
        int r = real_##vname vargs; \
        va_end(ap); \
        after_io(t, fp, r > 0 ? (uint64_t)r : 0, 1, t0); \
        return r; \
    }
JS_PRINTF(fprintf, vfprintf, (FILE *fp, const char *f, ...), fp, (FILE *, const char *, va_list), (fp, f, ap))
JS_PRINTF(printf, vprintf, (const char *f, ...), stdout, (const char *, va_list), (f, ap))
JS_PRINTF(__fprintf_chk, __vfprintf_chk, (FILE *fp, int fl, const char *f, ...), fp, (FILE *, int, const char *, va_list), (fp, fl, f, ap))
JS_PRINTF(__printf_chk, __vprintf_chk, (int fl, const char *f, ...), stdout, (int, const char *, va_list), (fl, f, ap))
JS_PRINTF(fwprintf, vfwprintf, (FILE *fp, const wchar_t *f, ...), fp, (FILE *, const wchar_t *, va_list), (fp, f, ap))
JS_PRINTF(wprintf, vwprintf, (const wchar_t *f, ...), stdout, (const wchar_t *, va_list), (f, ap))
JS_PRINTF(__fwprintf_chk, __vfwprintf_chk, (FILE *fp, int fl, const wchar_t *f, ...), fp, (FILE *, int, const wchar_t *, va_list), (fp, fl, f, ap))
JS_PRINTF(__wprintf_chk, __vwprintf_chk, (int fl, const wchar_t *f, ...), stdout, (int, const wchar_t *, va_list), (fl, f, ap))

/* --- opening and closing streams --- */
static int flags_of_mode(const char *m)
{
    int plus = m && strchr(m, '+') != NULL;
    if (m && m[0] == 'r')
        return plus ? O_RDWR : O_RDONLY;
    return plus ? O_RDWR : O_WRONLY;
}

/* an fopen family call began at t0 (ticks) and gave fp */
static void after_open(FILE *fp, const char *path, const char *mode, uint64_t t0)
{
    struct js_thread *t = js_self();
    if (!t || t->in_mpi)
        return;
    js_add_call(t, JS_M_STDIO_OPEN_CALLS, JS_M_STDIO_NS, t0);
    if (fp && path) {
        int e = errno;
        js_file_opened(fileno_unlocked(fp), path, AT_FDCWD, flags_of_mode(mode), JS_LAYER_STDIO);
        errno = e;
    }
}

JS_EXPORT FILE *fopen(const char *path, const char *mode)
{
    JS_REAL(FILE *, fopen, (const char *, const char *));
    uint64_t t0 = js_ticks();
    FILE *fp = real_fopen(path, mode);
    if (js_on)
        after_open(fp, path, mode, t0);
    return fp;
}

JS_EXPORT FILE *fopen64(const char *path, const char *mode)
{
    JS_REAL(FILE *, fopen64, (const char *, const char *));
    uint64_t t0 = js_ticks();
    FILE *fp = real_fopen64(path, mode);
    if (js_on)
        after_open(fp, path, mode, t0);
    return fp;
}

JS_EXPORT FILE *fdopen(int fd, const char *mode)
{
    JS_REAL(FILE *, fdopen, (int, const char *));
    uint64_t t0 = js_ticks();
    FILE *fp = real_fdopen(fd, mode);
    if (js_on)
        after_open(fp, NULL, mode, t0); /* the descriptor keeps the entry it was opened with */
    return fp;
}

static FILE *reopen(FILE *(*real)(const char *, const char *, FILE *), const char *path, const char *mode, FILE *fp)
{
    if (js_on && fp) {
        int e = errno;
        js_fd_closed(fileno_unlocked(fp));
        errno = e;
    }
    uint64_t t0 = js_ticks();
    FILE *r = real(path, mode, fp);
    if (js_on)
        after_open(r, path, mode, t0);
    return r;
}

JS_EXPORT FILE *freopen(const char *path, const char *mode, FILE *fp)
{
    JS_REAL(FILE *, freopen, (const char *, const char *, FILE *));
    return reopen(real_freopen, path, mode, fp);
}

JS_EXPORT FILE *freopen64(const char *path, const char *mode, FILE *fp)
{
    JS_REAL(FILE *, freopen64, (const char *, const char *, FILE *));
    return reopen(real_freopen64, path, mode, fp);
}

JS_EXPORT int fclose(FILE *fp)
{
    JS_REAL(int, fclose, (FILE *));
    struct js_thread *t = js_self();
    if (!t)
        return real_fclose(fp);
    int e = errno;
    int fd = fp ? fileno_unlocked(fp) : -1;
    errno = e;
    uint64_t t0 = js_ticks();
    int r = real_fclose(fp);
    js_fd_closed(fd);
    if (!t->in_mpi)
        js_add_call(t, JS_M_STDIO_META_CALLS, JS_M_STDIO_NS, t0);
    return r;
}

/* stdio's metadata calls; fflush and fseek write a stream's buffer out: their time is I/O time */
#define JS_SMETA(ret, name, params, args) JS_TIMED_CALL(ret, name, params, args, JS_M_STDIO_META_CALLS, JS_M_STDIO_NS)
JS_SMETA(int, fflush, (FILE *fp), (fp))
/* Pushing a character back moves no data: a metadata call (the character read again counts
 * again, so a getc/ungetc pair counts one byte more than the stream gave). */
JS_SMETA(int, ungetc, (int c, FILE *fp), (c, fp))
JS_SMETA(wint_t, ungetwc, (wint_t c, FILE *fp), (c, fp))
JS_SMETA(int, fseek, (FILE *fp, long o, int wh), (fp, o, wh))
JS_SMETA(int, fseeko, (FILE *fp, off_t o, int wh), (fp, o, wh))
JS_SMETA(int, fseeko64, (FILE *fp, off64_t o, int wh), (fp, o, wh))

/* glibc's other names of the same functions (libio's _IO_ names, which programs built against
 * glibc before 2.28 call for getc and putc; tests/unit/profiler-exports.sh) */
#define JS_SALIAS(name, target) extern __typeof(target) name JS_EXPORT __attribute__((alias(#target), copy(target)));
int _IO_getc(FILE *);
int _IO_putc(int, FILE *);
FILE *_IO_fopen(const char *, const char *);
FILE *_IO_fdopen(int, const char *);
size_t _IO_fread(void *, size_t, size_t, FILE *);
size_t _IO_fwrite(const void *, size_t, size_t, FILE *);
int _IO_fputs(const char *, FILE *);
int _IO_puts(const char *);
char *_IO_fgets(char *, int, FILE *);
int _IO_fprintf(FILE *, const char *, ...);
int _IO_printf(const char *, ...);
int _IO_vfprintf(FILE *, const char *, va_list);
int _IO_fclose(FILE *);
int _IO_fflush(FILE *);
ssize_t __getdelim(char **, size_t *, int, FILE *);
JS_SALIAS(_IO_getc, getc)
JS_SALIAS(_IO_putc, putc)
JS_SALIAS(_IO_fopen, fopen)
JS_SALIAS(_IO_fdopen, fdopen)
JS_SALIAS(_IO_fread, fread)
JS_SALIAS(_IO_fwrite, fwrite)
JS_SALIAS(_IO_fputs, fputs)
JS_SALIAS(_IO_puts, puts)
JS_SALIAS(_IO_fgets, fgets)
JS_SALIAS(_IO_fprintf, fprintf)
JS_SALIAS(_IO_printf, printf)
JS_SALIAS(_IO_vfprintf, vfprintf)
JS_SALIAS(_IO_fclose, fclose)
JS_SALIAS(_IO_fflush, fflush)
JS_SALIAS(__getdelim, getdelim)
int _IO_ungetc(int, FILE *);
JS_SALIAS(_IO_ungetc, ungetc)
extern __typeof(js_vfscanf) js_vfscanf_alias __asm__("__vfscanf") JS_EXPORT __attribute__((alias("vfscanf")));

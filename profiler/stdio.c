/*
 * stdio wrappers. glibc's stdio reaches the kernel through internal calls that do not pass
 * through our POSIX wrappers, so a stdio request is counted once, here. Per-file counts go to
 * the entry of the stream's descriptor (the fopen-ed file's "stdio" entry).
 */
#undef _FORTIFY_SOURCE
#include "config.h"

#include "js.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#undef fread_unlocked
#undef fwrite_unlocked
#undef getc
#undef putc
#undef putchar
size_t __fread_chk(void *p, size_t bl, size_t s, size_t n, FILE *fp);
char *__fgets_chk(char *p, size_t bl, int n, FILE *fp);

static inline void after_io(struct js_thread *t, FILE *fp, uint64_t bytes, int wr, uint32_t w, uint64_t t0)
{
    if (t->in_mpi)
        return;
    js_add(t, wr ? JS_M_STDIO_WRITE_CALLS : JS_M_STDIO_READ_CALLS, 1);
    js_add(t, wr ? JS_M_STDIO_WRITE_BYTES : JS_M_STDIO_READ_BYTES, bytes);
    if (w)
        js_add(t, JS_M_STDIO_NS, (js_ticks() - t0) * w);
    if (fp) {
        int e = errno;
        struct js_file *f = js_fd_file(fileno_unlocked(fp));
        errno = e;
        if (f) {
            js_fadd(wr ? &f->write_calls : &f->read_calls, 1);
            js_fadd(wr ? &f->write_bytes : &f->read_bytes, bytes);
        }
    }
}

/* Body of a stdio read or write wrapper: CALL computes r, BYTES its byte count from r. */
#define JS_STDIO(rtype, name, params, fp, nreq, wr, call, bytes) \
    JS_EXPORT rtype name params \
    { \
        JS_REAL(rtype, name, params); \
        struct js_thread *t = js_self(); \
        if (!t) \
            return call; \
        uint32_t w = js_sample(t, (nreq)); \
        uint64_t t0 = w ? js_ticks() : 0; \
        rtype r = call; \
        after_io(t, fp, (bytes), wr, w, t0); \
        return r; \
    }

JS_STDIO(size_t, fread, (void *p, size_t s, size_t n, FILE *fp), fp, s * n, 0, real_fread(p, s, n, fp), r * s)
JS_STDIO(size_t, fwrite, (const void *p, size_t s, size_t n, FILE *fp), fp, s * n, 1, real_fwrite(p, s, n, fp), r * s)
JS_STDIO(size_t, fread_unlocked, (void *p, size_t s, size_t n, FILE *fp), fp, s * n, 0, real_fread_unlocked(p, s, n, fp), r * s)
JS_STDIO(size_t, fwrite_unlocked, (const void *p, size_t s, size_t n, FILE *fp), fp, s * n, 1, real_fwrite_unlocked(p, s, n, fp), r * s)
JS_STDIO(size_t, __fread_chk, (void *p, size_t bl, size_t s, size_t n, FILE *fp), fp, s * n, 0, real___fread_chk(p, bl, s, n, fp), r * s)
JS_STDIO(char *, fgets, (char *p, int n, FILE *fp), fp, 0, 0, real_fgets(p, n, fp), r ? strlen(r) : 0)
JS_STDIO(char *, __fgets_chk, (char *p, size_t bl, int n, FILE *fp), fp, 0, 0, real___fgets_chk(p, bl, n, fp), r ? strlen(r) : 0)
JS_STDIO(int, fgetc, (FILE *fp), fp, 0, 0, real_fgetc(fp), r != EOF)
JS_STDIO(int, getc, (FILE *fp), fp, 0, 0, real_getc(fp), r != EOF)
JS_STDIO(ssize_t, getline, (char **p, size_t *n, FILE *fp), fp, 0, 0, real_getline(p, n, fp), r > 0 ? (uint64_t)r : 0)
JS_STDIO(ssize_t, getdelim, (char **p, size_t *n, int d, FILE *fp), fp, 0, 0, real_getdelim(p, n, d, fp), r > 0 ? (uint64_t)r : 0)
JS_STDIO(int, fputc, (int c, FILE *fp), fp, 0, 1, real_fputc(c, fp), r != EOF)
JS_STDIO(int, putc, (int c, FILE *fp), fp, 0, 1, real_putc(c, fp), r != EOF)
JS_STDIO(int, putchar, (int c), stdout, 0, 1, real_putchar(c), r != EOF)
JS_STDIO(int, fputs, (const char *s, FILE *fp), fp, 0, 1, real_fputs(s, fp), r >= 0 ? strlen(s) : 0)
JS_STDIO(int, puts, (const char *s), stdout, 0, 1, real_puts(s), r >= 0 ? strlen(s) + 1 : 0)
JS_STDIO(int, vfprintf, (FILE *fp, const char *f, va_list ap), fp, 0, 1, real_vfprintf(fp, f, ap), r > 0 ? (uint64_t)r : 0)
JS_STDIO(int, vprintf, (const char *f, va_list ap), stdout, 0, 1, real_vprintf(f, ap), r > 0 ? (uint64_t)r : 0)
JS_STDIO(int, __vfprintf_chk, (FILE *fp, int fl, const char *f, va_list ap), fp, 0, 1, real___vfprintf_chk(fp, fl, f, ap), r > 0 ? (uint64_t)r : 0)
JS_STDIO(int, __vprintf_chk, (int fl, const char *f, va_list ap), stdout, 0, 1, real___vprintf_chk(fl, f, ap), r > 0 ? (uint64_t)r : 0)

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
        uint32_t w = js_sample(t, 0); \
        uint64_t t0 = w ? js_ticks() : 0; \
        int r = real_##vname vargs; \
        va_end(ap); \
        after_io(t, fp, r > 0 ? (uint64_t)r : 0, 1, w, t0); \
        return r; \
    }
JS_PRINTF(fprintf, vfprintf, (FILE *fp, const char *f, ...), fp, (FILE *, const char *, va_list), (fp, f, ap))
JS_PRINTF(printf, vprintf, (const char *f, ...), stdout, (const char *, va_list), (f, ap))
JS_PRINTF(__fprintf_chk, __vfprintf_chk, (FILE *fp, int fl, const char *f, ...), fp, (FILE *, int, const char *, va_list), (fp, fl, f, ap))
JS_PRINTF(__printf_chk, __vprintf_chk, (int fl, const char *f, ...), stdout, (int, const char *, va_list), (fl, f, ap))

/* --- opening and closing streams --- */
static int flags_of_mode(const char *m)
{
    int plus = m && strchr(m, '+') != NULL;
    if (m && m[0] == 'r')
        return plus ? O_RDWR : O_RDONLY;
    return plus ? O_RDWR : O_WRONLY;
}

static void after_open(FILE *fp, const char *path, const char *mode)
{
    struct js_thread *t = js_self();
    if (!t || t->in_mpi)
        return;
    js_add(t, JS_M_STDIO_OPEN_CALLS, 1);
    if (fp && path) {
        int e = errno;
        js_file_opened(fileno_unlocked(fp), path, AT_FDCWD, flags_of_mode(mode), JS_LAYER_STDIO);
        errno = e;
    }
}

JS_EXPORT FILE *fopen(const char *path, const char *mode)
{
    JS_REAL(FILE *, fopen, (const char *, const char *));
    FILE *fp = real_fopen(path, mode);
    if (js_on)
        after_open(fp, path, mode);
    return fp;
}

JS_EXPORT FILE *fopen64(const char *path, const char *mode)
{
    JS_REAL(FILE *, fopen64, (const char *, const char *));
    FILE *fp = real_fopen64(path, mode);
    if (js_on)
        after_open(fp, path, mode);
    return fp;
}

JS_EXPORT FILE *fdopen(int fd, const char *mode)
{
    JS_REAL(FILE *, fdopen, (int, const char *));
    FILE *fp = real_fdopen(fd, mode);
    if (js_on)
        after_open(fp, NULL, mode); /* the descriptor keeps the entry it was opened with */
    return fp;
}

static FILE *reopen(FILE *(*real)(const char *, const char *, FILE *), const char *path, const char *mode, FILE *fp)
{
    if (js_on && fp) {
        int e = errno;
        js_file_closed(fileno_unlocked(fp));
        errno = e;
    }
    FILE *r = real(path, mode, fp);
    if (js_on)
        after_open(r, path, mode);
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
    int r = real_fclose(fp);
    js_file_closed(fd);
    if (!t->in_mpi)
        js_add(t, JS_M_STDIO_META_CALLS, 1);
    return r;
}

#define JS_SMETA(ret, name, params, args) \
    JS_EXPORT ret name params \
    { \
        JS_REAL(ret, name, params); \
        struct js_thread *t = js_self(); \
        if (t && !t->in_mpi) \
            js_add(t, JS_M_STDIO_META_CALLS, 1); \
        return real_##name args; \
    }
JS_SMETA(int, fflush, (FILE *fp), (fp))
JS_SMETA(int, fseek, (FILE *fp, long o, int wh), (fp, o, wh))
JS_SMETA(int, fseeko, (FILE *fp, off_t o, int wh), (fp, o, wh))
JS_SMETA(int, fseeko64, (FILE *fp, off64_t o, int wh), (fp, o, wh))

/*
 * The file-access list: a fixed pool of JS_PROFILE_MAX_FILES entries, one per (path, layer),
 * found by hash at open; a table from descriptor to entry for the reads and writes (lock-free
 * lookups, atomic per-file counters); the working directory cached until chdir/fchdir.
 */
#include "config.h"

#include "js.h"
#include "profile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define JS_HASH_SLOTS 2048

struct js_file *js_fds[JS_FD_MAX];
struct js_file *js_file_pool; /* entries and paths live in the record (profile.h) */

static struct js_file *js_hash[JS_HASH_SLOTS];
static char *js_arena;
static pthread_mutex_t js_files_mu = PTHREAD_MUTEX_INITIALIZER;
static char js_cwd[PATH_MAX];
static int js_cwd_ok;

/* Set on this thread from before it takes js_files_mu until after it lets go: a signal handler
 * that opens a file meanwhile must not wait for the lock its own thread holds. */
static __thread int js_files_busy __attribute__((tls_model("initial-exec")));

/* Take the lock; 0 (the file goes unlisted, the call is still counted) when this thread is
 * already inside, i.e. we are in a signal handler that interrupted it. */
static int files_lock(void)
{
    if (js_files_busy)
        return 0;
    js_files_busy = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    pthread_mutex_lock(&js_files_mu);
    return 1;
}

static void files_unlock(void)
{
    pthread_mutex_unlock(&js_files_mu);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    js_files_busy = 0;
}

/* around fork: 1 when the lock was taken (not when fork came from a handler inside it) */
int js_files_lock(void)
{
    if (js_files_busy)
        return 0;
    pthread_mutex_lock(&js_files_mu);
    return 1;
}
void js_files_unlock(void) { pthread_mutex_unlock(&js_files_mu); }
void js_files_reinit_lock(void)
{
    pthread_mutex_init(&js_files_mu, NULL);
    js_files_busy = 0;
}

void js_files_attach(void)
{
    js_file_pool = js_rec_region(js_g->off_files);
    js_arena = js_rec_region(js_g->off_paths);
}

void js_cwd_changed(void)
{
    __atomic_store_n(&js_cwd_ok, 0, __ATOMIC_RELAXED);
}

static uint32_t hash_str(const char *s, int layer)
{
    uint32_t h = 2166136261u ^ (uint32_t)layer;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* Append "/" and a path to dst (length *n, capacity cap), resolving "." and ".." lexically. */
static int path_join(char *dst, size_t *n, size_t cap, const char *rel)
{
    while (*rel) {
        while (*rel == '/')
            rel++;
        if (!*rel)
            break;
        const char *end = strchr(rel, '/');
        size_t len = end ? (size_t)(end - rel) : strlen(rel);
        if (len == 1 && rel[0] == '.') {
            /* nothing */
        } else if (len == 2 && rel[0] == '.' && rel[1] == '.') {
            while (*n > 0 && dst[*n - 1] != '/')
                (*n)--;
            if (*n > 1)
                (*n)--;
            if (*n == 0)
                dst[(*n)++] = '/';
        } else {
            if (*n + 1 + len + 1 > cap)
                return -1;
            if (*n == 0 || dst[*n - 1] != '/')
                dst[(*n)++] = '/';
            memcpy(dst + *n, rel, len);
            *n += len;
        }
        rel += len;
    }
    if (*n == 0)
        dst[(*n)++] = '/';
    dst[*n] = '\0';
    return 0;
}

/* An absolute path with no ".", ".." or empty component can be taken as it is. */
static int clean(const char *p)
{
    for (const char *q = p; *q; q++)
        if (q[0] == '/' && (q[1] == '/' || (q[1] == '.' && (q[2] == '/' || q[2] == '\0' ||
                                                             (q[2] == '.' && (q[3] == '/' || q[3] == '\0'))))))
            return 0;
    return 1;
}

/* The absolute form of path as seen from dirfd. Returns 0, or -1 when it cannot be known. */
static int absolute(char *out, size_t cap, int dirfd, const char *path)
{
    size_t n = 0;
    if (path[0] == '/' && clean(path)) {
        size_t l = strnlen(path, cap);
        if (l >= cap)
            return -1;
        memcpy(out, path, l + 1);
        if (l > 1 && out[l - 1] == '/')
            out[l - 1] = '\0';
        return 0;
    }
    if (path[0] != '/') {
        if (dirfd == AT_FDCWD) {
            if (!__atomic_load_n(&js_cwd_ok, __ATOMIC_RELAXED)) {
                if (getcwd(js_cwd, sizeof js_cwd) == NULL)
                    return -1;
                __atomic_store_n(&js_cwd_ok, 1, __ATOMIC_RELAXED);
            }
            n = strnlen(js_cwd, cap - 1);
            memcpy(out, js_cwd, n);
        } else {
            char link[64] = "/proc/self/fd/";
            char *p = link + 14;
            int d = dirfd, k = 0;
            char rev[12];
            if (d < 0)
                return -1;
            do
                rev[k++] = (char)('0' + d % 10);
            while ((d /= 10) && k < 11);
            while (k)
                *p++ = rev[--k];
            *p = '\0';
            ssize_t r = readlink(link, out, cap - 1);
            if (r <= 0)
                return -1;
            n = (size_t)r;
        }
        if (n >= cap)
            return -1;
        out[n] = '\0';
    }
    return path_join(out, &n, cap, path);
}

static int under(const char *path, const char *dir, size_t len)
{
    return strncmp(path, dir, len) == 0 && (path[len] == '/' || path[len] == '\0');
}

static int excluded(const char *p)
{
    switch (p[1]) {
    case 'p': if (under(p, "/proc", 5)) return 1; break;
    case 's': if (under(p, "/sys", 4)) return 1; break;
    case 'd': if (under(p, "/dev", 4)) return 1; break;
    default: break;
    }
    return p[1] == js_g->dir[1] && under(p, js_g->dir, js_g->dir_len);
}


/* Find or make the entry of (path, layer); caller holds js_files_mu. NULL when the list is full. */
static struct js_file *entry_of(const char *abs, int layer, int fd, int *fresh)
{
    uint32_t h = hash_str(abs, layer);
    struct js_file **slot = &js_hash[h % JS_HASH_SLOTS];
    for (struct js_file *f = *slot; f; f = f->hnext)
        if (f->hash == h && f->layer == layer && strcmp(f->path, abs) == 0)
            return f;
    size_t len = strlen(abs) + 1;
    unsigned n = js_g->nfiles;
    if (n >= JS_PROFILE_MAX_FILES || js_g->paths_used + len > JS_REC_PATH_BYTES ||
        js_rec_reserve(&js_file_pool[n], sizeof *js_file_pool) != 0 ||
        js_rec_reserve(js_arena + js_g->paths_used, len) != 0) {
        js_g->files_dropped++;
        return NULL;
    }
    struct js_file *f = &js_file_pool[n];
    memset(f, 0, sizeof *f);
    char *p = js_arena + js_g->paths_used;
    memcpy(p, abs, len);
    js_g->paths_used += len;
    f->path = p;
    f->hash = h;
    f->layer = (uint8_t)layer;
    f->first_open_ns = js_coarse_now_ns();
    if (fd >= 0) {
        struct stat st;
        if (js_real_fstat(fd, &st) == 0) {
            f->dev = (uint64_t)st.st_dev;
            f->ino = (uint64_t)st.st_ino;
        }
    }
    f->hnext = *slot;
    *slot = f;
    __atomic_store_n(&js_g->nfiles, n + 1, __ATOMIC_RELEASE);
    *fresh = 1;
    return f;
}

static int mode_of(int flags)
{
    switch (flags & O_ACCMODE) {
    case O_WRONLY: return JS_MODE_W;
    case O_RDWR: return JS_MODE_R | JS_MODE_W;
    default: return JS_MODE_R;
    }
}

void js_file_opened(int fd, const char *path, int dirfd, int flags, int layer)
{
    if (fd < 0 || path == NULL || !js_on)
        return;
    if (flags & (O_PATH | O_DIRECTORY))
        return;
    int e = errno;
    char abs[JS_PROFILE_MAX_PATH];
    struct js_thread *t = js_tls;
    if (!files_lock()) {
        errno = e;
        return;
    }
    if (absolute(abs, sizeof abs, dirfd, path) == 0 && !excluded(abs)) {
        struct js_file *f = NULL;
        int fresh = 0;
        if (t && t->in_mpi && layer == JS_LAYER_POSIX) {
            /* below MPI: only the lower layer of an MPI-IO file is of interest */
            uint32_t h = hash_str(abs, JS_LAYER_MPIIO);
            for (f = js_hash[h % JS_HASH_SLOTS]; f; f = f->hnext)
                if (f->hash == h && f->layer == JS_LAYER_MPIIO && strcmp(f->path, abs) == 0)
                    break;
            if (f && fd < JS_FD_MAX) {
                f->open_count++;
                __atomic_store_n(&js_fds[fd], f, __ATOMIC_RELEASE);
            }
        } else {
            f = entry_of(abs, layer, fd, &fresh);
            if (f) {
                if (f->opens == 0 && !fresh)
                    f->first_open_ns = js_coarse_now_ns(); /* first open in a forked child */
                f->opens++;
                f->open_count++;
                f->open_mode |= (uint8_t)mode_of(flags);
                if (fd < JS_FD_MAX)
                    __atomic_store_n(&js_fds[fd], f, __ATOMIC_RELEASE);
            }
        }
    }
    files_unlock();
    errno = e;
}

struct js_file *js_file_lookup_open(const char *path, int layer, int accmode)
{
    if (path == NULL || !js_on)
        return NULL;
    int e = errno;
    char abs[JS_PROFILE_MAX_PATH];
    struct js_file *f = NULL;
    int fresh = 0;
    /* MPI-IO names may carry a file-system prefix such as "ufs:" */
    const char *colon = strchr(path, ':');
    if (colon && colon - path > 1 && strchr(path, '/') > colon)
        path = colon + 1;
    if (!files_lock()) {
        errno = e;
        return NULL;
    }
    if (absolute(abs, sizeof abs, AT_FDCWD, path) == 0 && !excluded(abs)) {
        f = entry_of(abs, layer, -1, &fresh);
        if (f) {
            f->opens++;
            f->open_count++;
            f->open_mode |= (uint8_t)accmode;
        }
    }
    files_unlock();
    errno = e;
    return f;
}

void js_file_closed_entry(struct js_file *f)
{
    if (f == NULL)
        return;
    if (!js_mt) { /* one thread: no lock prefix needed */
        if (--f->open_count < 0)
            f->open_count = 0;
    } else if (__atomic_sub_fetch(&f->open_count, 1, __ATOMIC_RELAXED) <= 0) {
        __atomic_store_n(&f->open_count, 0, __ATOMIC_RELAXED);
    }
    __atomic_store_n(&f->last_close_ns, js_coarse_now_ns(), __ATOMIC_RELAXED);
}

void js_file_closed(int fd)
{
    if (fd < 0 || fd >= JS_FD_MAX)
        return;
    struct js_file *f;
    if (!js_mt) {
        f = js_fds[fd];
        if (f == NULL)
            return;
        js_fds[fd] = NULL;
    } else {
        f = __atomic_exchange_n(&js_fds[fd], NULL, __ATOMIC_ACQ_REL);
    }
    if (f && f->layer != JS_LAYER_MPIIO)
        js_file_closed_entry(f);
    else if (f)
        __atomic_sub_fetch(&f->open_count, 1, __ATOMIC_RELAXED);
}

void js_file_dup(int oldfd, int newfd)
{
    if (newfd < 0 || newfd >= JS_FD_MAX || oldfd == newfd)
        return;
    struct js_file *f = js_fd_file(oldfd);
    struct js_file *prev = __atomic_exchange_n(&js_fds[newfd], f, __ATOMIC_ACQ_REL);
    if (prev)
        __atomic_sub_fetch(&prev->open_count, 1, __ATOMIC_RELAXED);
    if (f)
        __atomic_add_fetch(&f->open_count, 1, __ATOMIC_RELAXED);
}

unsigned js_files_in_use(void)
{
    unsigned n = 0;
    for (unsigned i = 0; i < js_g->nfiles; i++) {
        struct js_file *f = &js_file_pool[i];
        if (f->opens || f->read_calls || f->write_calls || f->lower_read_bytes || f->lower_write_bytes)
            n++;
    }
    return n;
}

void js_files_reset_after_fork(void)
{
    uint64_t now = js_coarse_now_ns();
    for (unsigned i = 0; i < js_g->nfiles; i++) {
        struct js_file *f = &js_file_pool[i];
        f->read_calls = f->read_bytes = f->write_calls = f->write_bytes = 0;
        f->lower_read_bytes = f->lower_write_bytes = 0;
        f->opens = 0;
        f->first_open_ns = now; /* inherited descriptors: "opened" at the fork */
        f->last_close_ns = 0;
    }
    js_g->files_dropped = 0;
}

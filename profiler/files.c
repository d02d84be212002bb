/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The file-access list: a fixed pool of JS_PROFILE_MAX_FILES entries, one per (path, layer),
 * found by hash at open; a table from descriptor to entry for the reads and writes (lock-free
 * lookups, atomic per-file counters); the working directory cached until chdir/fchdir.
 * An open of a file already listed takes no lock: the hash chains only ever grow, each entry
 * published whole (release) before it can be found; only a new entry takes the lock.
 * Files under a software tree (system directories, Python packages, shared libraries, code
 * read anywhere: js_tree_of, trees.c) share one entry per tree, so that an interpreter's
 * thousand imports leave room in the list for the data files; trees take at most JS_TREES_MAX
 * entries, so that code never crowds data out. Renames are kept in order, for the ingest to
 * carry a file's writer over to its new name.
 */
#include "config.h"

#include "js.h"
#include "modules.h"
#include "profile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define JS_HASH_SLOTS 2048
/* Entries the trees may take: the rest of the list (768 at least) stays the data files',
 * whatever code the process loads (a project's modules in hundreds of directories); the opens
 * of code beyond it are counted in code_dropped, never in a data file's place. */
#define JS_TREES_MAX 256

struct js_file *js_fds[JS_FD_MAX];
uint64_t js_fd_seen[JS_FD_MAX / 64];
uint64_t js_fd_waits[JS_FD_MAX / 64];
uint64_t js_fd_sync[JS_FD_MAX / 64];
struct js_file *js_file_pool; /* entries and paths live in the record (profile.h) */

static struct js_file *js_hash[JS_HASH_SLOTS];
static unsigned js_ntrees; /* tree entries made (under js_files_mu); a fork child keeps them with the list */
static char *js_arena;
static pthread_mutex_t js_files_mu = PTHREAD_MUTEX_INITIALIZER;
static char js_cwd[PATH_MAX];
static size_t js_cwd_len;
static int js_cwd_ok;
static unsigned js_cwd_seq; /* odd while js_cwd is rewritten (under the lock): lock-free readers retry */

/* Set on this thread from before it takes js_files_mu until after it lets go: a signal handler
 * that opens a file meanwhile must not wait for the lock its own thread holds. */
static __thread int js_files_busy __attribute__((tls_model("initial-exec")));

/* Take the lock; 0 (the file goes unlisted, the call is still counted) when this thread is
 * already inside, i.e. we are in a signal handler that interrupted it. */
static int files_lock(void) { return js_lock_mine(&js_files_mu, &js_files_busy, 1); }
static void files_unlock(void) { js_unlock_mine(&js_files_mu, &js_files_busy); }

/* around fork: the lock taken (not when fork came from a handler inside it), let go after */
static int js_files_fork_locked;
static void files_fork_prepare(void)
{
    js_files_fork_locked = 0;
    if (js_files_busy)
        return;
    pthread_mutex_lock(&js_files_mu);
    js_files_fork_locked = 1;
}
static void files_fork_parent(void)
{
    if (js_files_fork_locked)
        pthread_mutex_unlock(&js_files_mu);
}
static void files_reinit_lock(void)
{
    pthread_mutex_init(&js_files_mu, NULL);
    js_files_busy = 0;
}

/* entries and paths are in the (new) record */
static void files_attach(void)
{
    js_file_pool = js_rec_region(js_g->off_files);
    js_arena = js_rec_region(js_g->off_paths);
}

void js_cwd_changed(void)
{
    __atomic_store_n(&js_cwd_ok, 0, __ATOMIC_RELAXED);
}

/* Hash of a path of len bytes at a layer, 8 bytes at a step (the last step overlaps). */
static uint32_t hash_path(const char *s, size_t len, int layer)
{
    const uint64_t k = 0xff51afd7ed558ccdULL;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)layer ^ ((uint64_t)len << 40), w = 0;
    if (len >= 8) {
        for (size_t i = 0; i + 8 < len; i += 8) {
            memcpy(&w, s + i, 8);
            h = (h ^ w) * k;
            h ^= h >> 32;
        }
        memcpy(&w, s + len - 8, 8);
    } else {
        for (size_t i = 0; i < len; i++)
            w |= (uint64_t)(unsigned char)s[i] << (8 * i);
    }
    h = (h ^ w) * k;
    h ^= h >> 29;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 32;
    return (uint32_t)h;
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

/* A path (len bytes, NUL-terminated) with no ".", ".." or empty component after a '/': from
 * '/' to '/' with memchr, a step per component. */
static int clean_exact(const char *p, size_t len)
{
    const char *end = p + len;
    for (const char *q = memchr(p, '/', len); q; q = memchr(q + 1, '/', (size_t)(end - q - 1))) {
        if (q[1] == '/' || (q[1] == '.' && (q[2] == '/' || q[2] == '\0' ||
                                            (q[2] == '.' && (q[3] == '/' || q[3] == '\0')))))
            return 0;
        if (q + 1 == end)
            break;
    }
    return 1;
}

/* Bytes of x that are 0 have their high bit set (and maybe some bytes above them: a hint). */
static inline uint64_t zero_bytes(uint64_t x)
{
    return (x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL;
}

/* The hash of a path of len bytes at a layer (as hash_path) and, in the same pass, whether it
 * surely has no ".", ".." or empty component: 1, or 0 when it is not clean (or may not be: a
 * '/' followed by '/' or '.', which a name like ".cache" also is, is then looked at exactly). */
static int path_key(const char *p, size_t len, int layer, uint32_t *hash)
{
    const uint64_t k = 0xff51afd7ed558ccdULL, slash = 0x2f2f2f2f2f2f2f2fULL, dot = 0x2e2e2e2e2e2e2e2eULL;
    if (len < 8) {
        *hash = hash_path(p, len, layer);
        return clean_exact(p, len);
    }
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)layer ^ ((uint64_t)len << 40), w;
    uint64_t maybe = 0, carry = 0; /* carry: a '/' ends the word before, in byte 0's place */
    size_t i = 0;
    for (;; i += 8) {
        int last = i + 8 >= len;
        if (last)
            i = len - 8; /* the last word overlaps the one before: its pairs are all inside it */
        memcpy(&w, p + i, 8);
        uint64_t sl = zero_bytes(w ^ slash), sd = sl | zero_bytes(w ^ dot);
        maybe |= (sl & (sd >> 8)) | (carry & sd); /* a '/' and after it a '/' or '.' */
        carry = sl >> 56;
        h = (h ^ w) * k;
        if (last)
            break;
        h ^= h >> 32;
    }
    h ^= h >> 29;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 32;
    *hash = (uint32_t)h;
    return maybe == 0 || clean_exact(p, len);
}

/* getcwd into the cache; caller holds js_files_mu. 0, or -1 when it cannot be known. */
static int cwd_refresh(void)
{
    __atomic_store_n(&js_cwd_seq, js_cwd_seq + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    int ok = getcwd(js_cwd, sizeof js_cwd) != NULL;
    js_cwd_len = ok ? strnlen(js_cwd, sizeof js_cwd) : 0;
    __atomic_store_n(&js_cwd_seq, js_cwd_seq + 1, __ATOMIC_RELEASE);
    __atomic_store_n(&js_cwd_ok, ok, __ATOMIC_RELAXED);
    return ok ? 0 : -1;
}

/* The absolute form of path if it needs no resolving (path_key says whether it does): an
 * absolute path as it is, or a relative one joined to the cached working directory in out.
 * NULL: absolute() must make it (under the lock). No lock and no system call, so it is safe in a
 * signal handler and leaves errno alone. */
static const char *absolute_fast(char *out, size_t cap, int dirfd, const char *path, size_t *len)
{
    size_t l = strnlen(path, cap);
    if (l == 0 || l >= cap || path[l - 1] == '/')
        return NULL;
    if (path[0] == '/') {
        *len = l;
        return path;
    }
    if (dirfd != AT_FDCWD)
        return NULL;
    unsigned seq = __atomic_load_n(&js_cwd_seq, __ATOMIC_ACQUIRE);
    if ((seq & 1) || !__atomic_load_n(&js_cwd_ok, __ATOMIC_RELAXED))
        return NULL;
    size_t n = js_cwd_len;
    if (n == 0 || n + 1 + l + 1 > cap)
        return NULL;
    memcpy(out, js_cwd, n);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (__atomic_load_n(&js_cwd_seq, __ATOMIC_RELAXED) != seq)
        return NULL;
    if (n > 1)
        out[n++] = '/';
    memcpy(out + n, path, l + 1);
    *len = n + l;
    return out;
}

/* "/proc/self/fd/<fd>" into link (at least 32 bytes), without stdio (a signal handler may be here) */
static void fd_link(char *link, int fd)
{
    memcpy(link, "/proc/self/fd/", 14);
    *js_put_uint(link + 14, (unsigned)fd) = '\0';
}

/* The absolute form of path as seen from dirfd. Returns 0, or -1 when it cannot be known. */
static int absolute(char *out, size_t cap, int dirfd, const char *path)
{
    size_t n = 0;
    if (path[0] == '/' && clean_exact(path, strlen(path))) {
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
            if (!__atomic_load_n(&js_cwd_ok, __ATOMIC_RELAXED) && cwd_refresh() != 0)
                return -1;
            n = js_cwd_len < cap - 1 ? js_cwd_len : cap - 1;
            memcpy(out, js_cwd, n);
        } else {
            char link[32];
            if (dirfd < 0)
                return -1;
            fd_link(link, dirfd);
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

/* The entry of (path, layer) with hash h, or NULL; no lock needed. */
static struct js_file *find(const char *abs, uint32_t h, int layer)
{
    for (struct js_file *f = __atomic_load_n(&js_hash[h % JS_HASH_SLOTS], __ATOMIC_ACQUIRE); f; f = f->hnext)
        if (f->hash == h && f->layer == layer && strcmp(f->path, abs) == 0)
            return f;
    return NULL;
}

/* A copy of path in the arena (caller holds js_files_mu), or NULL when there is no room. */
static const char *keep_path(const char *path)
{
    if (path == NULL)
        return NULL;
    size_t len = strlen(path) + 1;
    if (js_g->paths_used + len > JS_REC_PATH_BYTES || js_rec_reserve(js_arena + js_g->paths_used, len) != 0)
        return NULL;
    char *p = js_arena + js_g->paths_used;
    memcpy(p, path, len);
    js_g->paths_used += len;
    return p;
}

/* The kernel's name of the file open on fd (symbolic links on the way resolved), kept in the
 * arena when it differs from abs; NULL when the same or unknown. Caller holds js_files_mu.
 * One readlink at a file's first open, straight into the arena (no 4 KiB on the stack). */
static const char *resolved_name(int fd, const char *abs)
{
    size_t room = JS_REC_PATH_BYTES - js_g->paths_used;
    if (room > JS_PROFILE_MAX_PATH)
        room = JS_PROFILE_MAX_PATH;
    char *dst = js_arena + js_g->paths_used, link[32];
    if (room < 2 || js_rec_reserve(dst, room) != 0)
        return NULL;
    fd_link(link, fd);
    ssize_t r = readlink(link, dst, room - 1);
    if (r <= 0 || (size_t)r >= room - 1 || dst[0] != '/')
        return NULL;
    dst[r] = '\0';
    if (strcmp(dst, abs) == 0 || (r > 10 && strcmp(dst + r - 10, " (deleted)") == 0))
        return NULL;
    js_g->paths_used += (uint64_t)r + 1;
    return dst;
}

/* Find or make the entry of (path, layer); caller holds js_files_mu. NULL when the list is full. */
static struct js_file *entry_of(const char *abs, int layer, int fd)
{
    size_t len = strlen(abs) + 1;
    uint32_t h = hash_path(abs, len - 1, layer);
    struct js_file **slot = &js_hash[h % JS_HASH_SLOTS];
    struct js_file *found = find(abs, h, layer);
    if (found)
        return found;
    unsigned n = js_g->nfiles;
    if (n >= JS_PROFILE_MAX_FILES || (layer == JS_LAYER_TREE && js_ntrees >= JS_TREES_MAX) ||
        js_g->paths_used + len > JS_REC_PATH_BYTES || js_rec_reserve(&js_file_pool[n], sizeof *js_file_pool) != 0 ||
        js_rec_reserve(js_arena + js_g->paths_used, len) != 0) {
        if (layer == JS_LAYER_TREE)
            js_g->code_dropped++; /* code before data: said apart (collect.c) */
        else
            js_g->files_dropped++;
        return NULL;
    }
    if (layer == JS_LAYER_TREE)
        js_ntrees++;
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
        js_file_identity(f, fd);
        f->resolved = resolved_name(fd, abs);
    }
    f->hnext = *slot;
    __atomic_store_n(slot, f, __ATOMIC_RELEASE); /* whole before it can be found */
    __atomic_store_n(&js_g->nfiles, n + 1, __ATOMIC_RELEASE);
    return f;
}

/* The entry of the tree named by the first tl bytes of p, or NULL; no lock needed. */
static struct js_file *find_tree(const char *p, size_t tl)
{
    uint32_t h = hash_path(p, tl, JS_LAYER_TREE);
    for (struct js_file *f = __atomic_load_n(&js_hash[h % JS_HASH_SLOTS], __ATOMIC_ACQUIRE); f; f = f->hnext)
        if (f->hash == h && f->layer == JS_LAYER_TREE && strncmp(f->path, p, tl) == 0 && f->path[tl] == '\0')
            return f;
    return NULL;
}

/* Find or make the entry of that tree; caller holds js_files_mu. */
static struct js_file *tree_entry(const char *p, size_t tl)
{
    char key[JS_PROFILE_MAX_PATH];
    memcpy(key, p, tl);
    key[tl] = '\0';
    return entry_of(key, JS_LAYER_TREE, -1);
}

static int read_only(int flags) { return (flags & O_ACCMODE) == O_RDONLY; }

void js_fd_sync_set(int fd, int on)
{
    if ((unsigned)fd >= JS_FD_MAX || js_fd_syncs(fd) == !!on)
        return;
    if (on)
        __atomic_fetch_or(&js_fd_sync[fd >> 6], 1ULL << (fd & 63), __ATOMIC_RELAXED);
    else
        __atomic_fetch_and(&js_fd_sync[fd >> 6], ~(1ULL << (fd & 63)), __ATOMIC_RELAXED);
}

static int mode_of(int flags)
{
    switch (flags & O_ACCMODE) {
    case O_WRONLY: return JS_MODE_W;
    case O_RDWR: return JS_MODE_R | JS_MODE_W;
    default: return JS_MODE_R;
    }
}

/* A 4-byte counter of an entry: as js_fadd. */
static void fadd32(int *p, int n)
{
    if (JS_LIKELY(!js_mt)) {
#if defined(__x86_64__)
        __asm__ volatile("addl %1, %0" : "+m"(*p) : "er"(n));
#else
        __atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
#endif
    } else {
        __atomic_fetch_add(p, n, __ATOMIC_RELAXED);
    }
}

/* fd is open on f now. below_mpi: an open by the MPI library of an MPI-IO file (its lower layer). */
static void opened(struct js_file *f, int fd, int flags, int below_mpi)
{
    if (!below_mpi) {
        if (f->opens == 0) /* its first open (in a forked child: the first since the fork) */
            __atomic_store_n(&f->first_open_ns, js_coarse_now_ns(), __ATOMIC_RELAXED);
        js_fadd(&f->opens, 1);
        uint8_t m = (uint8_t)mode_of(flags);
        if ((f->open_mode & m) != m)
            __atomic_fetch_or(&f->open_mode, m, __ATOMIC_RELAXED);
    }
    fadd32(&f->open_count, 1);
    if (fd < JS_FD_MAX)
        __atomic_store_n(&js_fds[fd], f, __ATOMIC_RELEASE);
}

/* An open of a file not listed (or of a path that needs resolving): a software tree's entry,
 * or a new entry under the lock. Out of line, so that the listed file's path above stays
 * short (inlined here it cost every open of a listed file ~30 ns). abs holds fast, if any. */
static __attribute__((noinline, cold)) void opened_unlisted(int fd, const char *path, int dirfd, int flags, int layer,
                                                            int below_mpi, int at, const char *fast, size_t len, char *abs)
{
    struct js_file *f;
    size_t tl;
    if (fast && !below_mpi && (tl = js_tree_of(fast, len, read_only(flags))) != 0 && (f = find_tree(fast, tl)) != NULL) {
        opened(f, fd, flags, 0); /* a software tree seen before: no lock either */
        return;
    }
    int e = errno;
    if (!files_lock()) {
        errno = e;
        return;
    }
    if (fast != NULL || absolute(abs, JS_PROFILE_MAX_PATH, dirfd, path) == 0) {
        const char *p = fast ? fast : abs;
        if (!excluded(p)) {
            if (below_mpi)
                f = find(p, hash_path(p, strlen(p), at), at);
            else if ((tl = js_tree_of(p, strlen(p), read_only(flags))) != 0)
                f = tree_entry(p, tl);
            else
                f = entry_of(p, layer, fd);
            if (f)
                opened(f, fd, flags, below_mpi);
        }
    }
    files_unlock();
    errno = e;
}

void js_file_opened(int fd, const char *path, int dirfd, int flags, int layer)
{
    if (fd < 0 || path == NULL || !js_on)
        return;
    js_fd_sync_set(fd, flags & O_DSYNC); /* O_SYNC has the O_DSYNC bit too */
    if (flags & (O_PATH | O_DIRECTORY))
        return;
    char abs[JS_PROFILE_MAX_PATH];
    struct js_thread *t = js_tls;
    /* below MPI: only the lower layer of an MPI-IO file is of interest */
    int below_mpi = t && t->in_mpi && layer == JS_LAYER_POSIX;
    int at = below_mpi ? JS_LAYER_MPIIO : layer;
    size_t len = 0;
    uint32_t h;
    const char *fast = absolute_fast(abs, sizeof abs, dirfd, path, &len);
    if (fast && !path_key(fast, len, at, &h))
        fast = NULL;
    if (fast) { /* the common case: a file listed before, found without the lock */
        if (excluded(fast))
            return;
        struct js_file *f = find(fast, h, at);
        if (f || below_mpi) {
            if (f)
                opened(f, fd, flags, below_mpi);
            return;
        }
    }
    opened_unlisted(fd, path, dirfd, flags, layer, below_mpi, at, fast, len, abs);
}

/* Descriptors 0-2 inherited open on regular files (a shell's "> out", "< in", the job's output
 * file) get their file's entry, so that what the image reads and writes through them is listed:
 * the shell opened the file and wrote nothing, the program writes. Not counted as opens. */
static void files_inherited(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        struct stat st;
        char abs[JS_PROFILE_MAX_PATH], link[32];
        if (js_sys_fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        fd_link(link, fd);
        ssize_t r = readlink(link, abs, sizeof abs - 1);
        if (r <= 0 || abs[0] != '/')
            continue;
        abs[r] = '\0';
        long fl = js_sysret(js_syscall4(SYS_fcntl, fd, F_GETFL, 0, 0)); /* ours: no wrapper */
        if (fl >= 0)
            js_fd_sync_set(fd, (int)fl & O_DSYNC);
        if (fl < 0 || excluded(abs) || js_tree_of(abs, (size_t)r, read_only((int)fl)) || !files_lock())
            continue;
        struct js_file *f = entry_of(abs, JS_LAYER_POSIX, fd);
        if (f) { /* open on it now, and how, but not opened by this image */
            f->open_mode |= (uint8_t)mode_of((int)fl);
            f->open_count++;
            js_fds[fd] = f;
        }
        files_unlock();
    }
}

/* The first counted call on a descriptor with no entry that was never looked at (js.h,
 * js_fd_file_or_adopt): a regular file gets its entry now, found by its name through
 * /proc/self/fd (one fstat, one readlink, the file table's lock), as an inherited standard
 * descriptor does at start: open on it, but not opened by this image (0 opens). Anything else
 * (a pipe, a socket, a device, a file left out) is only remembered as looked at. */
__attribute__((noinline, cold)) struct js_file *js_fd_adopt(int fd)
{
    if (fd < 0 || fd >= JS_FD_MAX || !js_on)
        return NULL;
    int e = errno;
    struct js_file *f = NULL;
    struct stat st;
    int looked = 1, waits = 0;
    struct js_thread *t = js_tls;
    /* first used inside an MPI call: the MPI library's own descriptor (ompio's .lock file, say),
     * its lower layer, never the application's file */
    if (t && t->in_mpi)
        ;
    else if (js_sys_fstat(fd, &st) != 0)
        ;
    else if (!S_ISREG(st.st_mode))
        waits = !S_ISBLK(st.st_mode); /* a pipe, a socket, a terminal, /dev/null */
    else {
        char abs[JS_PROFILE_MAX_PATH], link[32];
        fd_link(link, fd);
        ssize_t r = readlink(link, abs, sizeof abs - 1);
        if (r > 0 && abs[0] == '/' && !(r > 10 && memcmp(abs + r - 10, " (deleted)", 10) == 0)) {
            abs[r] = '\0';
            long fl = js_syscall4(SYS_fcntl, fd, F_GETFL, 0, 0);
            if (fl >= 0)
                js_fd_sync_set(fd, (int)fl & O_DSYNC);
            if (fl >= 0 && !excluded(abs)) {
                if (files_lock()) {
                    size_t tl = js_tree_of(abs, (size_t)r, read_only((int)fl));
                    f = tl ? tree_entry(abs, tl) : entry_of(abs, JS_LAYER_POSIX, fd);
                    if (f) {
                        uint8_t m = (uint8_t)mode_of((int)fl);
                        if ((f->open_mode & m) != m)
                            __atomic_fetch_or(&f->open_mode, m, __ATOMIC_RELAXED);
                        fadd32(&f->open_count, 1);
                        __atomic_store_n(&js_fds[fd], f, __ATOMIC_RELEASE);
                    }
                    files_unlock();
                } else {
                    looked = 0; /* a signal handler inside the lock: look again later */
                }
            }
        }
    }
    if (looked)
        __atomic_fetch_or(&js_fd_seen[fd >> 6], 1ULL << (fd & 63), __ATOMIC_RELAXED);
    if (waits)
        __atomic_fetch_or(&js_fd_waits[fd >> 6], 1ULL << (fd & 63), __ATOMIC_RELAXED);
    errno = e;
    return f;
}

void js_file_renamed(int from_dirfd, const char *from, int to_dirfd, const char *to)
{
    if (from == NULL || to == NULL || !js_on)
        return;
    int e = errno;
    char a[JS_PROFILE_MAX_PATH], b[JS_PROFILE_MAX_PATH];
    if (!files_lock()) {
        errno = e;
        return;
    }
    /* the new name resolved through links (it exists now); the old one's directory */
    if (absolute(b, sizeof b, to_dirfd, to) == 0 && absolute(a, sizeof a, from_dirfd, from) == 0 &&
        !excluded(a) && !excluded(b)) {
        char *slash = strrchr(a, '/');
        char dir[JS_PROFILE_MAX_PATH];
        if (slash && slash > a) {
            *slash = '\0';
            if (realpath(a, dir) && strlen(dir) + strlen(slash + 1) + 2 <= sizeof a) {
                size_t dl = strlen(dir);
                dir[dl] = '/';
                memmove(a, dir, dl + 1);
                memmove(a + dl + 1, slash + 1, strlen(slash + 1) + 1);
            } else {
                *slash = '/';
            }
        }
        char real[PATH_MAX];
        const char *nb = realpath(b, real) ? real : b;
        unsigned n = js_g->nrenames;
        const char *kf, *kt;
        /* code moved within its trees (Python writing __pycache__/x.pyc.N as x.pyc) is no data's
         * new name: not kept, or a thousand imports would leave no room for the data's renames */
        if (js_tree_of(a, strlen(a), 1) && js_tree_of(nb, strlen(nb), 1))
            ;
        else if (n >= JS_PROFILE_MAX_RENAMES || (kf = keep_path(a)) == NULL || (kt = keep_path(nb)) == NULL) {
            js_g->renames_dropped++;
        } else {
            js_g->renames[n].from = kf;
            js_g->renames[n].to = kt;
            js_g->renames[n].ns = js_now_ns();
            __atomic_store_n(&js_g->nrenames, n + 1, __ATOMIC_RELEASE);
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
    /* MPI-IO names may carry a file-system prefix such as "ufs:" */
    const char *colon = strchr(path, ':');
    if (colon && colon - path > 1 && strchr(path, '/') > colon)
        path = colon + 1;
    if (!files_lock()) {
        errno = e;
        return NULL;
    }
    if (absolute(abs, sizeof abs, AT_FDCWD, path) == 0 && !excluded(abs)) {
        f = entry_of(abs, layer, -1);
        if (f) {
            js_fadd(&f->opens, 1);
            fadd32(&f->open_count, 1);
            __atomic_fetch_or(&f->open_mode, (uint8_t)accmode, __ATOMIC_RELAXED);
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
    uint64_t bit = 1ULL << (fd & 63);
    if (JS_UNLIKELY(__atomic_load_n(&js_fd_seen[fd >> 6], __ATOMIC_RELAXED) & bit)) {
        __atomic_fetch_and(&js_fd_seen[fd >> 6], ~bit, __ATOMIC_RELAXED);
        __atomic_fetch_and(&js_fd_waits[fd >> 6], ~bit, __ATOMIC_RELAXED);
    }
    if (JS_UNLIKELY(__atomic_load_n(&js_fd_sync[fd >> 6], __ATOMIC_RELAXED) & bit))
        __atomic_fetch_and(&js_fd_sync[fd >> 6], ~bit, __ATOMIC_RELAXED);
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
    uint64_t bit = 1ULL << (newfd & 63);
    if (!f && oldfd >= 0 && oldfd < JS_FD_MAX && (js_fd_seen[oldfd >> 6] & (1ULL << (oldfd & 63)))) {
        __atomic_fetch_or(&js_fd_seen[newfd >> 6], bit, __ATOMIC_RELAXED);
        if (js_fd_waits_on(oldfd))
            __atomic_fetch_or(&js_fd_waits[newfd >> 6], bit, __ATOMIC_RELAXED);
        else
            __atomic_fetch_and(&js_fd_waits[newfd >> 6], ~bit, __ATOMIC_RELAXED);
    } else if (js_fd_seen[newfd >> 6] & bit) {
        __atomic_fetch_and(&js_fd_seen[newfd >> 6], ~bit, __ATOMIC_RELAXED);
        __atomic_fetch_and(&js_fd_waits[newfd >> 6], ~bit, __ATOMIC_RELAXED);
    }
    js_fd_sync_set(newfd, js_fd_syncs(oldfd));
    struct js_file *prev = __atomic_exchange_n(&js_fds[newfd], f, __ATOMIC_ACQ_REL);
    if (prev)
        __atomic_sub_fetch(&prev->open_count, 1, __ATOMIC_RELAXED);
    if (f)
        __atomic_add_fetch(&f->open_count, 1, __ATOMIC_RELAXED);
}

static int files_in_use(void)
{
    unsigned n = 0;
    for (unsigned i = 0; i < js_g->nfiles; i++) {
        struct js_file *f = &js_file_pool[i];
        if (f->opens || f->read_calls || f->write_calls || f->lower_read_bytes || f->lower_write_bytes || f->mapped_bytes)
            n++;
    }
    return n != 0;
}

static void files_reset_after_fork(void)
{
    uint64_t now = js_coarse_now_ns();
    for (unsigned i = 0; i < js_g->nfiles; i++) {
        struct js_file *f = &js_file_pool[i];
        f->read_calls = f->read_bytes = f->write_calls = f->write_bytes = 0;
        f->lower_read_bytes = f->lower_write_bytes = 0;
        f->mapped_bytes = 0;
        f->opens = 0;
        f->first_open_ns = now; /* inherited descriptors: "opened" at the fork */
        f->last_close_ns = 0;
    }
    js_g->files_dropped = 0;
    js_g->code_dropped = 0;
    js_g->nrenames = 0; /* the parent's */
    js_g->renames_dropped = 0;
}


static void files_start(void)
{
    files_attach();
    files_inherited();
}

const struct js_module js_files_module = {
    .name = "files",
    .on_start = files_start,
    .in_use = files_in_use,
    .on_fork_prepare = files_fork_prepare,
    .on_fork_parent = files_fork_parent,
    .on_fork_child_locks = files_reinit_lock,
    .on_fork_child = files_reset_after_fork,
};

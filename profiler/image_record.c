/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The record file of a process image (layout in profile.h, design in docs/profiler.md):
 * taken from the pool the step's collector keeps or made at start, copied under the child's
 * pid at fork, its chunks allocated (and charged to the job's record quota) before
 * first use, and the status of a reaped child written into the child's record.
 * Every file operation here uses the real functions and holds no descriptor between calls.
 */
#include "config.h"

#include "js.h"
#include "profile.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h> /* RENAME_NOREPLACE, without stdio */
#include <linux/magic.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

_Static_assert(sizeof(struct js_global) <= JS_REC_HEADER_BYTES, "the record header outgrew its region");

static unsigned char *js_base;           /* this process's mapping of its record */
static size_t js_map_bytes;

static struct js_quota *js_quota;       /* the job's record quota here, or NULL: no cap */
static pthread_mutex_t js_rec_mu = PTHREAD_MUTEX_INITIALIZER;
static __thread int js_rec_busy __attribute__((tls_model("initial-exec")));

void *js_rec_region(uint64_t off)
{
    return js_base ? js_base + off : NULL;
}

static char *put_u(char *p, uint64_t v)
{
    char b[24];
    int i = 0;
    do
        b[i++] = (char)('0' + v % 10);
    while ((v /= 10) && i < 23);
    while (i)
        *p++ = b[--i];
    return p;
}

/* DIR/<step>.<node>.<pid>[-n].rec into out (JS_REC_PATH_MAX bytes) */
#define JS_REC_PATH_MAX 4200
static void rec_name(char *out, pid_t pid, unsigned n)
{
    char *p = out;
    size_t dl = js_g->dir_len, sl = strnlen(js_g->step, sizeof js_g->step - 1), nl = strnlen(js_g->node, 255);
    memcpy(p, js_g->dir, dl);
    p += dl;
    *p++ = '/';
    memcpy(p, js_g->step, sl);
    p += sl;
    *p++ = '.';
    memcpy(p, js_g->node, nl);
    p += nl;
    *p++ = '.';
    p = put_u(p, (uint64_t)pid);
    if (n) {
        *p++ = '-';
        p = put_u(p, n);
    }
    memcpy(p, JS_REC_SUFFIX, sizeof JS_REC_SUFFIX);
}

/* A record the step's collector made ahead (.pool.<step>.<node>.<k>: sized, its first chunks
 * written and charged to the quota), taken with one rename that never replaces anything: no
 * inode to allocate on the process's path, which on ext4 after many deletions costs 0.5-1.5 ms.
 * Its descriptor, or -1 (none left: the caller makes one). */
static int rec_claim_pooled(char *path)
{
    char pool[JS_REC_PATH_MAX];
    size_t dl = js_g->dir_len, sl = strnlen(js_g->step, sizeof js_g->step - 1), nl = strnlen(js_g->node, 255);
    if (dl + sl + nl + 32 > sizeof pool)
        return -1;
    memcpy(pool, js_g->dir, dl);
    char *p = pool + dl;
    memcpy(p, "/" JS_REC_POOL_PREFIX, sizeof JS_REC_POOL_PREFIX);
    p += sizeof JS_REC_POOL_PREFIX;
    memcpy(p, js_g->step, sl);
    p += sl;
    *p++ = '.';
    memcpy(p, js_g->node, nl);
    p += nl;
    *p++ = '.';
    /* the watcher fills the pool from .0 up, 4 records at first, doubling up to JS_REC_POOL: one
     * try in each size class, the smallest first, finds a record of a small pool at once */
    static const unsigned class_first[] = {0, 4, 8, 16, 32}, class_size[] = {4, 4, 8, 16, 32};
    _Static_assert(32 + 32 == JS_REC_POOL, "the size classes cover the pool");
    pid_t pid = getpid();
    for (unsigned t = 0; t < sizeof class_first / sizeof class_first[0]; t++) {
        char *q = put_u(p, class_first[t] + (unsigned)pid % class_size[t]);
        *q = '\0';
        for (unsigned n = 0; n < 8; n++) {
            rec_name(path, pid, n);
            if (js_syscall6(SYS_renameat2, AT_FDCWD, (long)pool, AT_FDCWD, (long)path, RENAME_NOREPLACE, 0) == 0) {
                int fd = js_sys_open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0);
                if (fd >= 0)
                    return fd;
                js_sys_unlink(path);
                return -1;
            }
            if (errno != EEXIST)
                break; /* taken (ENOENT): the next one */
        }
    }
    return -1;
}

/* A new record file of this pid, never an existing one: its descriptor, -1 on error. */
static int rec_open_new(char *path)
{
    pid_t pid = getpid();
    for (unsigned n = 0; n < 1000; n++) {
        rec_name(path, pid, n);
        int fd = js_sys_open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd >= 0)
            return fd;
        if (errno != EEXIST)
            return -1;
    }
    errno = EEXIST;
    return -1;
}

/* The record is on a tmpfs (the plugin's default record_dir=): set when it is made. */
static int js_rec_on_tmpfs;

static int on_tmpfs(int fd)
{
    struct statfs sfs;
    return js_sysret(js_syscall4(SYS_fstatfs, fd, (long)&sfs, 0, 0)) == 0 && sfs.f_type == TMPFS_MAGIC;
}

/* Allocate [off, off+len) of the file: blocks reserved now cannot fail later (a full record area
 * would otherwise deliver SIGBUS at a store into the mapping). On a disk file system zeros are
 * written rather than fallocate()d: a store into a fallocated (unwritten) block costs ext4 a
 * journalled extent conversion at its first fault, about 150 us a page here, against 1 us for
 * a written one. A tmpfs has no such conversion, and fallocate spares copying the zeros. */
static int allocate(int fd, uint64_t off, uint64_t len)
{
    static const char zero[16u << 10];
    if (js_rec_on_tmpfs && js_sys_fallocate(fd, (off_t)off, (off_t)len) == 0)
        return 0;
    for (uint64_t o = off; o < off + len;) {
        size_t n = off + len - o < sizeof zero ? (size_t)(off + len - o) : sizeof zero;
        if (js_sys_pwrite(fd, zero, n, (off_t)o) != (ssize_t)n)
            return -1;
        o += n;
    }
    return 0;
}

/* The ledger the plugin made (profiles/.quota.<node>), mapped once per image; none: no cap. */
static void quota_attach(void)
{
    char path[JS_REC_PATH_MAX];
    struct stat sb;
    if (js_quota != NULL)
        return;
    size_t dl = js_g->dir_len, nl = strnlen(js_g->node, sizeof js_g->node - 1), pl = sizeof JS_QUOTA_PREFIX - 1;
    if (dl + 1 + pl + nl + 1 > sizeof path)
        return;
    memcpy(path, js_g->dir, dl);
    path[dl] = '/';
    memcpy(path + dl + 1, JS_QUOTA_PREFIX, pl);
    memcpy(path + dl + 1 + pl, js_g->node, nl);
    path[dl + 1 + pl + nl] = '\0';
    int fd = js_sys_open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0);
    if (fd < 0)
        return;
    if (js_sys_fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size >= (off_t)sizeof(struct js_quota)) {
        void *m = js_sys_mmap(NULL, sizeof(struct js_quota), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (m != MAP_FAILED && memcmp(((struct js_quota *)m)->magic, JS_QUOTA_MAGIC, 8) == 0)
            js_quota = m;
        else if (m != MAP_FAILED)
            js_sys_munmap(m, sizeof(struct js_quota));
    }
    js_sys_close(fd);
}

static int chunk_is_set(const struct js_global *g, uint64_t c)
{
    return (__atomic_load_n(&g->alloc[c / 64], __ATOMIC_ACQUIRE) >> (c % 64)) & 1;
}

/* How many of the chunks first..last are not allocated yet. */
static uint64_t chunks_in(uint64_t first, uint64_t last, const struct js_global *g)
{
    uint64_t n = 0;
    for (uint64_t c = first; c <= last; c++)
        n += !chunk_is_set(g, c);
    return n;
}

/* Allocate the chunks first..last, charged to the job's record quota first. */
static int allocate_chunks(int fd, struct js_global *g, uint64_t first, uint64_t last)
{
    int64_t bytes = (int64_t)(chunks_in(first, last, g) * JS_REC_CHUNK);
    if (js_quota_charge(js_quota, 0, bytes) != 0) {
        errno = EDQUOT;
        return -1;
    }
    for (uint64_t c = first; c <= last;) {
        if (chunk_is_set(g, c)) {
            c++;
            continue;
        }
        uint64_t end = c; /* a run of chunks to allocate with one call */
        while (end < last && !chunk_is_set(g, end + 1))
            end++;
        if (allocate(fd, c * JS_REC_CHUNK, (end - c + 1) * JS_REC_CHUNK) != 0) {
            int e = errno;
            js_quota_charge(js_quota, 0, -(int64_t)(chunks_in(c, last, g) * JS_REC_CHUNK)); /* not taken */
            errno = e;
            return -1;
        }
        for (; c <= end; c++)
            __atomic_fetch_or(&g->alloc[c / 64], 1ULL << (c % 64), __ATOMIC_RELEASE);
    }
    return 0;
}

int js_rec_create(void)
{
    struct js_global *g = js_g;
    char path[JS_REC_PATH_MAX];
    js_map_bytes = js_rec_layout(g);
    quota_attach();
    memset(g->alloc, 0, sizeof g->alloc);
    /* records made ahead come with the plugin, which makes the quota ledger before it starts
     * the watcher that keeps them: no ledger, no pool to look for */
    int fd = js_quota ? rec_claim_pooled(path) : -1;
    int pooled = fd >= 0;
    if (pooled) { /* made ahead, sized, its first chunks written and charged */
        for (uint64_t c = 0; c < JS_REC_FIRST_CHUNKS; c++)
            g->alloc[c / 64] |= 1ULL << (c % 64);
    } else {
        if (js_quota_charge(js_quota, 1, 0) != 0) {
            js_quota_refused(js_quota, g->step);
            js_note_error("the job's record quota on this node is used up; this process is not recorded", EDQUOT);
            return -1;
        }
        fd = rec_open_new(path);
        if (fd < 0) {
            js_quota_charge(js_quota, -1, 0);
            js_note_error("cannot create the record in JOBSCREEN_PROFILE_DIR", errno);
            return -1;
        }
    }
    js_rec_on_tmpfs = on_tmpfs(fd);
    void *m = MAP_FAILED;
    if (pooled || (js_sys_ftruncate(fd, (off_t)js_map_bytes) == 0 && allocate_chunks(fd, g, 0, JS_REC_FIRST_CHUNKS - 1) == 0))
        m = js_sys_mmap(NULL, js_map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int e = errno;
    if (m != MAP_FAILED) {
        /* the first page of the file list, of its paths and of the slices: nearly every process
         * needs them, and now they cost no opening of the record each (one that is refused
         * is asked for again when it is needed) */
        const uint64_t firsts[] = {g->off_files, g->off_paths, g->off_slices};
        for (unsigned i = 0; i < sizeof firsts / sizeof firsts[0]; i++)
            if (allocate_chunks(fd, g, firsts[i] / JS_REC_CHUNK, firsts[i] / JS_REC_CHUNK) != 0)
                break;
    }
    js_sys_close(fd);
    if (m == MAP_FAILED) {
        js_sys_unlink(path);
        js_quota_charge(js_quota, -1, -js_rec_allocated(g));
        if (e == EDQUOT)
            js_quota_refused(js_quota, g->step);
        js_note_error("cannot make the record in JOBSCREEN_PROFILE_DIR", e);
        return -1;
    }
    js_base = m;
    struct js_global *r = m;
    /* The boot header holds only what making the record needed (where, the step and node, the
     * job and slice length for messages, an error noted, the chunks allocated): copied field by
     * field, not all 18 KiB, which would touch every page of both. The caller writes the
     * identity into the record itself, then js_rec_publish() makes it valid. */
    r->header_bytes = sizeof *r;
    r->base = (uint64_t)(uintptr_t)m;
    memcpy(r->alloc, g->alloc, sizeof r->alloc);
    js_rec_layout(r);
    memcpy(r->step, g->step, sizeof r->step);
    memcpy(r->node, g->node, strnlen(g->node, sizeof r->node - 1));
    memcpy(r->dir, g->dir, g->dir_len + 1);
    r->dir_len = g->dir_len;
    r->job_id = g->job_id;
    r->slice_seconds = g->slice_seconds;
    if (g->err_what) {
        r->err_what = g->err_what;
        r->err_errno = g->err_errno;
    }
    memcpy(r->rec_path, path, strlen(path) + 1);
    js_g = r;
    return 0;
}

/* The record's header is complete: a reader may take it from now on (the magic is last). */
void js_rec_publish(void)
{
    __atomic_thread_fence(__ATOMIC_RELEASE);
    memcpy((char *)js_g->magic, JS_REC_MAGIC, sizeof js_g->magic);
}

int js_rec_rehome(void)
{
    char path[JS_REC_PATH_MAX];
    struct js_global *g = js_g;
    if (js_base == NULL)
        return -1;
    /* the chunks to copy, as they are now: another thread of the parent may allocate more
     * meanwhile, and those are the parent's (the child's header gets this bitmap) */
    struct js_global snap;
    for (unsigned w = 0; w < JS_REC_CHUNK_WORDS; w++)
        snap.alloc[w] = __atomic_load_n(&g->alloc[w], __ATOMIC_ACQUIRE);
    int64_t bytes = js_rec_allocated(&snap);
    if (js_quota_charge(js_quota, 1, bytes) != 0) {
        js_quota_refused(js_quota, g->step);
        return -1;
    }
    int fd = rec_open_new(path);
    if (fd < 0) {
        js_quota_charge(js_quota, -1, -bytes);
        return -1;
    }
    int ok = js_sys_ftruncate(fd, (off_t)js_map_bytes) == 0;
    /* copy what is allocated, a run of chunks at a time: the file's blocks are allocated by the writes */
    const uint64_t nchunks = js_map_bytes / JS_REC_CHUNK;
    for (uint64_t c = 0; ok && c < nchunks; c++) {
        if (!chunk_is_set(&snap, c))
            continue;
        uint64_t end = c;
        while (end + 1 < nchunks && chunk_is_set(&snap, end + 1))
            end++;
        size_t n = (size_t)(end - c + 1) * JS_REC_CHUNK;
        ok = js_sys_pwrite(fd, js_base + c * JS_REC_CHUNK, n, (off_t)(c * JS_REC_CHUNK)) == (ssize_t)n;
        c = end;
    }
    void *m = ok ? js_sys_mmap(js_base, js_map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) : MAP_FAILED;
    js_sys_close(fd);
    if (m == MAP_FAILED) {
        js_sys_unlink(path);
        js_quota_charge(js_quota, -1, -bytes);
        return -1;
    }
    memcpy(js_g->alloc, snap.alloc, sizeof snap.alloc);
    memcpy(js_g->rec_path, path, strlen(path) + 1);
    js_g->unlinked = 0;
    return 0;
}

int js_rec_remove(void)
{
    if (js_base == NULL || js_sys_unlink(js_g->rec_path) != 0)
        return -1;
    js_quota_charge(js_quota, -1, -js_rec_allocated(js_g));
    return 0;
}

void js_rec_detach(void)
{
    static struct js_global copy;
    if (js_base == NULL)
        return;
    memcpy(&copy, js_g, sizeof copy);
    js_g = &copy;
    /* the same addresses, private and empty: a stale pointer of ours never writes into a record */
    js_sys_mmap(js_base, js_map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
    js_base = NULL;
}

int js_rec_reserve(const void *p, size_t len)
{
    struct js_global *g = js_g;
    if (js_base == NULL || (const unsigned char *)p < js_base || len == 0)
        return -1;
    uint64_t off = (uint64_t)((const unsigned char *)p - js_base);
    if (off + len > js_map_bytes)
        return -1;
    uint64_t first = off / JS_REC_CHUNK, last = (off + len - 1) / JS_REC_CHUNK;
    int all = 1;
    for (uint64_t c = first; c <= last && all; c++)
        all = chunk_is_set(g, c);
    if (all)
        return 0;
    int e = errno;
    if (!js_lock_mine(&js_rec_mu, &js_rec_busy, 1)) /* a signal handler interrupted a reservation on this thread */
        return -1;
    int rc = -1;
    int fd = js_sys_open(g->rec_path, O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0);
    if (fd >= 0) {
        rc = allocate_chunks(fd, g, first, last);
        js_sys_close(fd);
    }
    if (rc != 0) {
        __atomic_fetch_add(&g->chunks_refused, 1, __ATOMIC_RELAXED);
        js_note_error("the record area refused to grow the record (full, or the record quota?)", errno);
    }
    js_unlock_mine(&js_rec_mu, &js_rec_busy);
    errno = e;
    return rc;
}

void js_rec_reinit_lock(void)
{
    pthread_mutex_init(&js_rec_mu, NULL);
    js_rec_busy = 0;
}

/* A child we reaped: its status (and rusage) into its record, the image that did not exec
 * away, so that a process killed by a signal still says how it ended. */
void js_rec_note_reaped(pid_t pid, int status, const void *rusage)
{
    char path[JS_REC_PATH_MAX];
    if (js_base == NULL || pid <= 0)
        return;
    int e = errno;
    struct js_reaped r = {.seen = 1, .status = status, .ns = js_now_ns()};
    if (rusage) {
        const struct rusage *ru = rusage;
        r.utime_ns = (uint64_t)ru->ru_utime.tv_sec * 1000000000ULL + (uint64_t)ru->ru_utime.tv_usec * 1000ULL;
        r.stime_ns = (uint64_t)ru->ru_stime.tv_sec * 1000000000ULL + (uint64_t)ru->ru_stime.tv_usec * 1000ULL;
        r.maxrss_kib = (uint64_t)ru->ru_maxrss;
    }
    for (unsigned n = 0; n < 64; n++) {
        rec_name(path, pid, n);
        int fd = js_sys_open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0);
        if (fd < 0) {
            if (errno == ENOENT)
                break;
            continue;
        }
        struct {
            char magic[8];
        } h;
        int32_t rpid = 0;
        char end[8] = "";
        struct js_reaped old = {0};
        if (js_sys_pread(fd, &h, sizeof h, 0) == (ssize_t)sizeof h && memcmp(h.magic, JS_REC_MAGIC, 8) == 0 &&
            js_sys_pread(fd, &rpid, sizeof rpid, offsetof(struct js_global, pid)) == (ssize_t)sizeof rpid &&
            js_sys_pread(fd, end, sizeof end, offsetof(struct js_global, end)) == (ssize_t)sizeof end &&
            js_sys_pread(fd, &old, sizeof old, offsetof(struct js_global, reaped)) == (ssize_t)sizeof old &&
            rpid == pid && strcmp(end, "exec") != 0 && !old.seen)
            (void)!js_sys_pwrite(fd, &r, sizeof r, offsetof(struct js_global, reaped));
        js_sys_close(fd);
    }
    errno = e;
}

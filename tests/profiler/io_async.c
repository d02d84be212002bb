/* SPDX-License-Identifier: GPL-2.0-or-later */
/* I/O through the asynchronous and other paths of issue 15, each on its own file with known
 * bytes. Usage: io_async DIR [child]. Known totals per file (test profiler/posix-stdio):
 *   aio.dat      libaio io_submit: 2 writes of 4096 B, 1 read of 4096 B
 *   paio.dat     POSIX AIO: aio_write 3000 B, aio_read 3000 B (bytes at aio_return); lio_listio
 *                write 1000 B (and its aio_return)
 *   uring.dat    liburing: 2 writes of 8192 B (one WRITEV of 2 x 4096), 1 read 8192 B
 *   raw.dat      raw io_uring (syscall()): 1 write of 512 B, 1 read of 512 B
 *   wide.txt     fputws 5 characters, fwprintf 6, fputwc 1: 12 written; fgetws 12 read
 *   unl.txt      fputc_unlocked 1, fputs_unlocked 4, fwrite_unlocked 3: 8 B in 3 writes;
 *                fgetc_unlocked 1, fgets_unlocked 4 and 2: 7 B in 3 reads
 *   scan.txt     fprintf "12 34 abc\n" 10 B written, fscanf "%d %d" 5 B read
 *   map.dat      mmap of 8192 B (mapped_bytes), msync
 *   o2.dat       openat2 through syscall(): 1 open, write 6 B
 *   inh.dat      opened without O_CLOEXEC as fd 17 and exec'd into "child": the child writes
 *                11 B through fd 17, which it never opened */
#define _GNU_SOURCE
#include <aio.h>
#include <fcntl.h>
#include <libaio.h>
#include <liburing.h>
#include <linux/io_uring.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <wchar.h>

static char path[4096];
static const char *in(const char *dir, const char *name)
{
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}
static int open_in(const char *dir, const char *name, int flags)
{
    int fd = open(in(dir, name), flags, 0644);
    if (fd < 0) {
        perror(path);
        exit(1);
    }
    return fd;
}
#define CHECK(c) \
    do { \
        if (!(c)) { \
            fprintf(stderr, "io_async: %s failed at line %d\n", #c, __LINE__); \
            exit(1); \
        } \
    } while (0)

static char buf[16384] __attribute__((aligned(4096)));

static void libaio(const char *dir)
{
    int fd = open_in(dir, "aio.dat", O_RDWR | O_CREAT | O_TRUNC);
    io_context_t ctx = 0;
    CHECK(io_setup(8, &ctx) == 0);
    struct iocb a, b, c, *list[2] = { &a, &b };
    struct io_event ev[2];
    io_prep_pwrite(&a, fd, buf, 4096, 0);
    io_prep_pwrite(&b, fd, buf, 4096, 4096);
    CHECK(io_submit(ctx, 2, list) == 2);
    CHECK(io_getevents(ctx, 2, 2, ev, NULL) == 2);
    io_prep_pread(&c, fd, buf, 4096, 0);
    list[0] = &c;
    CHECK(io_submit(ctx, 1, list) == 1);
    CHECK(io_getevents(ctx, 1, 1, ev, NULL) == 1);
    io_destroy(ctx);
    close(fd);
}

static void wait_aio(struct aiocb *cb)
{
    const struct aiocb *l[1] = { cb };
    while (aio_error(cb) == EINPROGRESS)
        aio_suspend(l, 1, NULL);
}

static void posix_aio(const char *dir)
{
    int fd = open_in(dir, "paio.dat", O_RDWR | O_CREAT | O_TRUNC);
    struct aiocb w = { .aio_fildes = fd, .aio_buf = buf, .aio_nbytes = 3000, .aio_offset = 0 };
    CHECK(aio_write(&w) == 0);
    wait_aio(&w);
    CHECK(aio_return(&w) == 3000);
    struct aiocb r = { .aio_fildes = fd, .aio_buf = buf, .aio_nbytes = 3000, .aio_offset = 0 };
    CHECK(aio_read(&r) == 0);
    wait_aio(&r);
    CHECK(aio_return(&r) == 3000);
    struct aiocb l = { .aio_fildes = fd, .aio_buf = buf, .aio_nbytes = 1000, .aio_offset = 3000,
                       .aio_lio_opcode = LIO_WRITE };
    struct aiocb *list[1] = { &l };
    CHECK(lio_listio(LIO_WAIT, list, 1, NULL) == 0);
    CHECK(aio_return(&l) == 1000);
    close(fd);
}

static void uring(const char *dir)
{
    int fd = open_in(dir, "uring.dat", O_RDWR | O_CREAT | O_TRUNC);
    struct io_uring ring;
    struct io_uring_cqe *cqe;
    CHECK(io_uring_queue_init(8, &ring, 0) == 0);
    struct iovec iov[2] = { { buf, 4096 }, { buf + 4096, 4096 } };
    struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
    io_uring_prep_write(sqe, fd, buf, 8192, 0);
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_writev(sqe, fd, iov, 2, 8192);
    CHECK(io_uring_submit(&ring) == 2);
    for (int i = 0; i < 2; i++) {
        CHECK(io_uring_wait_cqe(&ring, &cqe) == 0 && cqe->res == 8192);
        io_uring_cqe_seen(&ring, cqe);
    }
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_read(sqe, fd, buf, 8192, 0);
    CHECK(io_uring_submit_and_wait(&ring, 1) == 1);
    CHECK(io_uring_wait_cqe(&ring, &cqe) == 0 && cqe->res == 8192);
    io_uring_cqe_seen(&ring, cqe);
    io_uring_queue_exit(&ring);
    close(fd);
}

/* io_uring without liburing: setup and enter through syscall(), rings mapped by hand */
static void raw_uring(const char *dir)
{
    int fd = open_in(dir, "raw.dat", O_RDWR | O_CREAT | O_TRUNC);
    struct io_uring_params p;
    memset(&p, 0, sizeof p);
    int rfd = (int)syscall(SYS_io_uring_setup, 4, &p);
    CHECK(rfd >= 0);
    size_t sqlen = p.sq_off.array + p.sq_entries * sizeof(unsigned);
    size_t cqlen = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
    char *sq = mmap(NULL, sqlen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, rfd, IORING_OFF_SQ_RING);
    char *cq = mmap(NULL, cqlen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, rfd, IORING_OFF_CQ_RING);
    struct io_uring_sqe *sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
                                     MAP_SHARED | MAP_POPULATE, rfd, IORING_OFF_SQES);
    CHECK(sq != MAP_FAILED && cq != MAP_FAILED && sqes != MAP_FAILED);
    unsigned *tail = (unsigned *)(sq + p.sq_off.tail), *mask = (unsigned *)(sq + p.sq_off.ring_mask);
    unsigned *array = (unsigned *)(sq + p.sq_off.array);
    unsigned *chead = (unsigned *)(cq + p.cq_off.head);
    for (int op = 0; op < 2; op++) {
        unsigned t = *tail, i = t & *mask;
        memset(&sqes[i], 0, sizeof sqes[i]);
        sqes[i].opcode = op == 0 ? IORING_OP_WRITE : IORING_OP_READ;
        sqes[i].fd = fd;
        sqes[i].addr = (unsigned long)buf;
        sqes[i].len = 512;
        array[i] = i;
        __atomic_store_n(tail, t + 1, __ATOMIC_RELEASE);
        CHECK(syscall(SYS_io_uring_enter, rfd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) == 1);
        __atomic_store_n(chead, *chead + 1, __ATOMIC_RELEASE);
    }
    munmap(sq, sqlen);
    munmap(cq, cqlen);
    munmap(sqes, p.sq_entries * sizeof(struct io_uring_sqe));
    close(rfd);
    close(fd);
}

static void stdio_paths(const char *dir)
{
    FILE *f = fopen(in(dir, "wide.txt"), "w+");
    CHECK(f);
    CHECK(fputws(L"hello", f) >= 0);
    CHECK(fwprintf(f, L"%ls", L" world") == 6);
    CHECK(fputwc(L'\n', f) == L'\n');
    rewind(f);
    wchar_t ws[64];
    CHECK(fgetws(ws, 64, f) && wcslen(ws) == 12);
    fclose(f);

    /* called as functions: glibc's headers inline fputc_unlocked, fgetc_unlocked and a
     * constant-size fwrite_unlocked, and those inline forms reach no function at all */
    int (*volatile pc)(int, FILE *) = fputc_unlocked, (*volatile gc)(FILE *) = fgetc_unlocked;
    size_t (*volatile fw)(const void *, size_t, size_t, FILE *) = fwrite_unlocked;
    f = fopen(in(dir, "unl.txt"), "w+");
    CHECK(f);
    CHECK(pc('a', f) == 'a');
    CHECK(fputs_unlocked("bcd\n", f) >= 0);
    CHECK(fw("ef\n", 1, 3, f) == 3);
    rewind(f);
    char s[64];
    CHECK(gc(f) == 'a');
    CHECK(fgets_unlocked(s, sizeof s, f) && strcmp(s, "bcd\n") == 0);
    CHECK(fgets_unlocked(s, 3, f) && strcmp(s, "ef") == 0);
    fclose(f);

    f = fopen(in(dir, "scan.txt"), "w+");
    CHECK(f);
    CHECK(fprintf(f, "12 34 abc\n") == 10);
    rewind(f);
    int x, y;
    CHECK(fscanf(f, "%d %d", &x, &y) == 2 && x == 12 && y == 34);
    fclose(f);
}

static void mapping(const char *dir)
{
    int fd = open_in(dir, "map.dat", O_RDWR | O_CREAT | O_TRUNC);
    CHECK(ftruncate(fd, 8192) == 0);
    char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    CHECK(m != MAP_FAILED);
    m[0] = 'm';
    CHECK(msync(m, 8192, MS_SYNC) == 0);
    munmap(m, 8192);
    /* anonymous memory counts nothing */
    void *anon = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(anon != MAP_FAILED);
    munmap(anon, 4096);
    close(fd);
}

static void openat2_raw(const char *dir)
{
    struct open_how how = { .flags = O_WRONLY | O_CREAT | O_TRUNC, .mode = 0644 };
    int fd = (int)syscall(SYS_openat2, AT_FDCWD, in(dir, "o2.dat"), &how, sizeof how);
    CHECK(fd >= 0);
    CHECK(write(fd, "open2\n", 6) == 6);
    close(fd);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[2], "child") == 0) { /* the exec'd image: fd 17 was never opened here */
        CHECK(write(17, "inherited!\n", 11) == 11);
        return 0;
    }
    if (argc != 2)
        return 2;
    const char *dir = argv[1];
    memset(buf, 'x', sizeof buf);
    libaio(dir);
    posix_aio(dir);
    uring(dir);
    raw_uring(dir);
    stdio_paths(dir);
    mapping(dir);
    openat2_raw(dir);
    int fd = open_in(dir, "inh.dat", O_WRONLY | O_CREAT | O_TRUNC);
    CHECK(dup2(fd, 17) == 17);
    close(fd);
    execl("/proc/self/exe", argv[0], dir, "child", (char *)NULL);
    perror("exec");
    return 1;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* profiler/identity.c: a file's identity at its first open (device, inode, birth time), that a
 * hard link shares and a new file on a reused inode does not, taken without touching errno. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "js.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ground.c's, which this test does not link */
long js_syscall_failed(long r)
{
    errno = (int)-r;
    return -1;
}

static char dir[] = "/tmp/js-identity-XXXXXX";

static void identity_of(const char *name, struct js_file *f)
{
    char p[128];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    int fd = open(p, O_RDONLY);
    assert_true(fd >= 0);
    memset(f, 0, sizeof *f);
    js_file_identity(f, fd);
    close(fd);
}

static void make(const char *name)
{
    char p[128];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *o = fopen(p, "w");
    assert_non_null(o);
    fputs("x\n", o);
    fclose(o);
}

/* dev and ino as fstat says; the birth time as the C library's statx says (0 where none) */
static void identity_is_fstat_and_statx(void **state)
{
    (void)state;
    make("a");
    struct js_file f;
    identity_of("a", &f);
    char p[128];
    snprintf(p, sizeof p, "%s/a", dir);
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_true(f.dev == (uint64_t)st.st_dev);
    assert_true(f.ino == (uint64_t)st.st_ino);
    struct statx sx;
    assert_int_equal(statx(AT_FDCWD, p, 0, STATX_BTIME, &sx), 0);
    if (sx.stx_mask & STATX_BTIME)
        assert_true(f.btime == (uint64_t)sx.stx_btime.tv_sec * 1000000000u + sx.stx_btime.tv_nsec && f.btime > 0);
    else
        assert_true(f.btime == 0);
}

/* a hard link is the same file; a file made on the inode of a deleted one (later than a clock
 * tick) is another */
static void a_link_is_one_file_a_reused_inode_another(void **state)
{
    (void)state;
    make("out");
    char from[128], to[128];
    snprintf(from, sizeof from, "%s/out", dir);
    snprintf(to, sizeof to, "%s/in", dir);
    assert_int_equal(link(from, to), 0);
    struct js_file a, b, c;
    identity_of("out", &a);
    identity_of("in", &b);
    assert_true(a.dev == b.dev && a.ino == b.ino && a.btime == b.btime);
    assert_int_equal(unlink(from), 0);
    assert_int_equal(unlink(to), 0);
    nanosleep(&(struct timespec){ 0, 20000000 }, NULL); /* past the file system's clock tick */
    make("new");
    identity_of("new", &c);
    if (a.btime == 0)
        skip(); /* no birth time here: nothing tells a reused inode apart */
    assert_false(c.dev == a.dev && c.ino == a.ino && c.btime == a.btime);
    print_message("# inode %s reused\n", c.ino == a.ino ? "was" : "was not");
}

/* the program's errno stays, whatever the system calls do (a closed descriptor: both fail) */
static void errno_is_kept(void **state)
{
    (void)state;
    struct js_file f;
    memset(&f, 0, sizeof f);
    errno = EINTR;
    js_file_identity(&f, 999);
    assert_int_equal(errno, EINTR);
    assert_true(f.dev == 0 && f.ino == 0 && f.btime == 0);
    make("e");
    errno = ENOENT;
    identity_of("e", &f);
    assert_int_equal(errno, ENOENT);
    assert_true(f.ino != 0);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(identity_is_fstat_and_statx),
        cmocka_unit_test(a_link_is_one_file_a_reused_inode_another),
        cmocka_unit_test(errno_is_kept),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

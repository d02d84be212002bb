/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the plugin's Slurm-free parts: plugstack.conf arguments (strict, the bad one
 * named), the profiling decision, and LD_PRELOAD editing (the profiler once, and out again). */
#define _GNU_SOURCE /* dladdr */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "plugstack_conf.h"

#define ARGS(...) (char *[]){ __VA_ARGS__ }
#define NARGS(...) (int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *))
#define PARSE(conf, err, ...) js_conf_parse(conf, NARGS(__VA_ARGS__), ARGS(__VA_ARGS__), err, sizeof err)

static void all_arguments_parse_into_the_struct(void **state)
{
    (void)state;
    struct js_conf c;
    char err[256] = "";
    assert_int_equal(PARSE(&c, err, "spool=/var/spool/js", "profiler=/usr/lib/p.so", "slice=10", "default=off",
                           "exclude_users=root,jsbob", "exclude_partitions=gpu", "exclude_exe=*.sh,sleep",
                           "fail_on_error=yes"),
                     0);
    assert_string_equal(c.spool, "/var/spool/js");
    assert_string_equal(c.profiler, "/usr/lib/p.so");
    assert_int_equal(c.slice_seconds, 10);
    assert_int_equal(c.default_on, 0);
    assert_string_equal(c.exclude_users, "root,jsbob");
    assert_string_equal(c.exclude_partitions, "gpu");
    assert_string_equal(c.exclude_exe, "*.sh,sleep");
    assert_int_equal(c.fail_on_error, 1);
    assert_int_equal(PARSE(&c, err, "spool=/s"), 0);
    assert_int_equal(c.slice_seconds, 4);
    assert_int_equal(c.default_on, 1);
    assert_int_equal(c.fail_on_error, 0);
}

static void bad_arguments_are_named(void **state)
{
    (void)state;
    struct js_conf c;
    char err[256];
    assert_int_equal(PARSE(&c, err, "spool=/s", "bogus=1"), -1);
    assert_string_equal(err, "unknown argument 'bogus=1'");
    assert_int_equal(PARSE(&c, err, "spool=/s", "slice=0"), -1);
    assert_string_equal(err, "slice=0: not a whole number of seconds between 1 and 3600");
    assert_int_equal(PARSE(&c, err, "spool=/s", "slice=4s"), -1);
    assert_int_equal(PARSE(&c, err, "spool=/s", "default=maybe"), -1);
    assert_string_equal(err, "default=maybe: not one of on/off, yes/no, true/false, 1/0");
    assert_int_equal(PARSE(&c, err, "spool=relative"), -1);
    assert_string_equal(err, "spool=relative: not an absolute path");
    assert_int_equal(PARSE(&c, err, "profiler=/p.so"), -1);
    assert_string_equal(err, "spool= is not set");
    assert_int_equal(PARSE(&c, err, "spool=/s", "noequals"), -1);
    assert_string_equal(err, "argument 'noequals': not key=value");
    assert_int_equal(PARSE(&c, err, "spool=/s", "exclude_users=a,,b"), -1);
    assert_string_equal(err, "exclude_users=a,,b: not a comma-separated list of non-empty names");
}

static void spool_share_and_collector(void **state)
{
    (void)state;
    struct js_conf c;
    char err[256] = "";
    assert_int_equal(PARSE(&c, err, "spool=/s"), 0);
    assert_int_equal(c.spool_quota, JS_SPOOL_QUOTA_DEFAULT);
    assert_int_equal(c.spool_files, JS_SPOOL_FILES_DEFAULT);
    assert_int_equal(PARSE(&c, err, "spool=/s", "spool_quota=64M", "spool_files=500", "collector=/usr/libexec/c"), 0);
    assert_int_equal(c.spool_quota, 64LL << 20);
    assert_int_equal(c.spool_files, 500);
    assert_string_equal(c.collector, "/usr/libexec/c");
    assert_int_equal(PARSE(&c, err, "spool=/s", "spool_quota=0", "spool_files=0"), 0);
    assert_int_equal(c.spool_quota, 0);
    assert_int_equal(js_parse_size("2G", 1), 2LL << 30);
    assert_int_equal(js_parse_size("3k", 1), 3072);
    assert_int_equal(js_parse_size("12", 0), 12);
    assert_int_equal(js_parse_size("5M", 0), -1);
    assert_int_equal(js_parse_size("-1", 1), -1);
    assert_int_equal(js_parse_size("1MB", 1), -1);
    assert_int_equal(js_parse_size("99999999999999999999", 1), -1);
    assert_int_equal(PARSE(&c, err, "spool=/s", "spool_quota=lots"), -1);
    assert_string_equal(err, "spool_quota=lots: not a whole number of bytes, with an optional K, M, G or T (0: no cap)");
    assert_int_equal(PARSE(&c, err, "spool=/s", "collector=relative/c"), -1);
    assert_string_equal(err, "collector=relative/c: not an absolute path");
    /* the record area: in memory by default, capped on its own */
    assert_int_equal(PARSE(&c, err, "spool=/s"), 0);
    assert_string_equal(c.record_dir, JS_RECORD_DIR_DEFAULT);
    assert_int_equal(c.record_quota, JS_RECORD_QUOTA_DEFAULT);
    assert_int_equal(c.record_files, JS_RECORD_FILES_DEFAULT);
    assert_int_equal(PARSE(&c, err, "spool=/s", "record_dir=/run/js", "record_quota=8M", "record_files=30"), 0);
    assert_string_equal(c.record_dir, "/run/js");
    assert_int_equal(c.record_quota, 8LL << 20);
    assert_int_equal(c.record_files, 30);
    assert_int_equal(c.spool_quota, JS_SPOOL_QUOTA_DEFAULT);
    assert_int_equal(PARSE(&c, err, "spool=/s", "record_files=2K"), -1);
    assert_string_equal(err, "record_files=2K: not a whole number (0: no cap)");
    assert_int_equal(PARSE(&c, err, "spool=/s", "record_dir=shm"), -1);
    assert_string_equal(err, "record_dir=shm: not an absolute path");
    /* %n: the node's name, for several slurmd on one machine */
    assert_int_equal(PARSE(&c, err, "spool=/s/%n/spool", "record_dir=/dev/shm/js/%n"), 0);
    assert_int_equal(js_conf_expand_node(&c, "n3", err, sizeof err), 0);
    assert_string_equal(c.spool, "/s/n3/spool");
    assert_string_equal(c.record_dir, "/dev/shm/js/n3");
    char longname[PATH_MAX];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_int_equal(PARSE(&c, err, "spool=/s/%n/spool"), 0);
    assert_int_equal(js_conf_expand_node(&c, longname, err, sizeof err), -1);
    assert_non_null(strstr(err, "longer than"));
}

/* nvml= and powercap= (docs/gpu.md): defaults, none, paths, %n */
static void gpu_arguments(void **state)
{
    (void)state;
    struct js_conf c;
    char err[256];
    assert_int_equal(PARSE(&c, err, "spool=/s"), 0);
    assert_string_equal(c.nvml, JS_NVML_DEFAULT);
    assert_string_equal(c.powercap, JS_POWERCAP_DEFAULT);
    assert_int_equal(PARSE(&c, err, "spool=/s", "nvml=none", "powercap=none"), 0);
    assert_string_equal(c.nvml, "none");
    assert_string_equal(c.powercap, "none");
    assert_int_equal(PARSE(&c, err, "spool=/s", "nvml=libnvidia-ml.so.550"), 0);
    assert_string_equal(c.nvml, "libnvidia-ml.so.550");
    assert_int_equal(PARSE(&c, err, "spool=/s", "nvml=/t/%n/libnvml.so", "powercap=/t/%n/powercap"), 0);
    assert_int_equal(js_conf_expand_node(&c, "n2", err, sizeof err), 0);
    assert_string_equal(c.nvml, "/t/n2/libnvml.so");
    assert_string_equal(c.powercap, "/t/n2/powercap");
    assert_int_equal(PARSE(&c, err, "spool=/s", "nvml=lib/nvml.so"), -1);
    assert_string_equal(err, "nvml=lib/nvml.so: not an absolute path, a library name or none");
    assert_int_equal(PARSE(&c, err, "spool=/s", "powercap=sys"), -1);
    assert_string_equal(err, "powercap=sys: not an absolute path or none");
    assert_int_equal(PARSE(&c, err, "spool=/s", "nvml="), -1);
}

static void decision_follows_the_documented_order(void **state)
{
    (void)state;
    struct js_conf c;
    char err[256];
    assert_int_equal(PARSE(&c, err, "spool=/s", "profiler=/p.so", "exclude_users=jsbob,0",
                           "exclude_partitions=gpu", "exclude_exe=sleep,*.sh"),
                     0);
    struct js_decision_in in = { .conf = &c, .user = "jsalice", .uid = 1001, .partition = "debug",
                                 .exe = "/usr/bin/hostname", .profiler_usable = 1 };
    assert_string_equal(js_decide(&in), "on");
    in.exe = "/bin/sleep";
    assert_string_equal(js_decide(&in), "excluded executable");
    in.exe = "run.sh";
    assert_string_equal(js_decide(&in), "excluded executable");
    in.exe = "hostname";
    in.partition = "gpu";
    assert_string_equal(js_decide(&in), "excluded partition");
    in.partition = "debug";
    in.user = "jsbob";
    assert_string_equal(js_decide(&in), "excluded user");
    in.user = "root";
    in.uid = 0;
    assert_string_equal(js_decide(&in), "excluded user");
    in.user = "jsalice";
    in.uid = 1001;
    in.profiler_usable = 0;
    assert_string_equal(js_decide(&in), "profiler missing");
    in.profiler_usable = 1;
    in.env_no_profile = "1";
    assert_string_equal(js_decide(&in), "JOBSCREEN_NO_PROFILE");
    in.opt_no_profile = 1;
    assert_string_equal(js_decide(&in), "no-profile option");
    in.special_step = 1;
    assert_string_equal(js_decide(&in), "special step");

    assert_int_equal(PARSE(&c, err, "spool=/s", "profiler=/p.so", "default=off"), 0);
    struct js_decision_in off = { .conf = &c, .user = "jsalice", .uid = 1001, .exe = "x", .profiler_usable = 1 };
    assert_string_equal(js_decide(&off), "default off");
    off.env_no_profile = "0"; /* the user opts in */
    assert_string_equal(js_decide(&off), "on");
}

static void preload_holds_the_profiler_once(void **state)
{
    (void)state;
    char out[256];
    assert_int_equal(js_preload_add(NULL, "/p.so", out, sizeof out), 0);
    assert_string_equal(out, "/p.so");
    assert_int_equal(js_preload_add("/a.so", "/p.so", out, sizeof out), 0);
    assert_string_equal(out, "/a.so:/p.so");
    assert_int_equal(js_preload_add("/a.so:/p.so", "/p.so", out, sizeof out), 0);
    assert_string_equal(out, "/a.so:/p.so");
    assert_int_equal(js_preload_add("/p.so /a.so", "/p.so", out, sizeof out), 0);
    assert_string_equal(out, "/p.so /a.so");
    assert_int_equal(js_preload_has("/x/p.so.1:/p.so2", "/p.so"), 0);
    assert_int_equal(js_preload_add("/a.so", "/p.so", out, 8), -1);
}

static void preload_loses_the_profiler_when_the_step_opts_out(void **state)
{
    (void)state;
    char out[256];
    assert_int_equal(js_preload_remove("/p.so", "/p.so", out, sizeof out), 0);
    assert_string_equal(out, "");
    assert_int_equal(js_preload_remove("/a.so:/p.so /b.so:/p.so", "/p.so", out, sizeof out), 0);
    assert_string_equal(out, "/a.so:/b.so");
    assert_int_equal(js_preload_remove("/a.so", "/p.so", out, sizeof out), 0);
    assert_string_equal(out, "/a.so");
}

static void booleans_and_lists(void **state)
{
    (void)state;
    assert_int_equal(js_parse_bool("YES"), 1);
    assert_int_equal(js_parse_bool("0"), 0);
    assert_int_equal(js_parse_bool("2"), -1);
    assert_int_equal(js_list_has("a,bb,c", "bb"), 1);
    assert_int_equal(js_list_has("a,bb,c", "b"), 0);
    assert_int_equal(js_list_has("", "a"), 0);
    assert_int_equal(js_list_match_exe("py*", "/usr/bin/python3"), 1);
    assert_int_equal(js_list_match_exe("/opt/*", "/opt/app/bin/x"), 1);
    assert_int_equal(js_list_match_exe("py*", "/usr/bin/perl"), 0);
}

/* a file of the given bytes and mode in a fresh temporary name (removed by the caller) */
static void write_file(char *path, const void *data, size_t n, mode_t mode)
{
    strcpy(path, "/tmp/js-prof-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, n), (ssize_t)n);
    close(fd);
    chmod(path, mode);
}

static void profiler_must_be_a_loadable_shared_library(void **state)
{
    (void)state;
    char why[160], path[64];
    /* a shared library of this machine (cmocka's, which this test links): taken */
    Dl_info di;
    assert_true(dladdr((void *)_cmocka_run_group_tests, &di) && di.dli_fname);
    assert_int_equal(js_profiler_check(di.dli_fname, why, sizeof why), 0);
    /* missing, a directory, unreadable by others, text, an executable, another class */
    assert_int_equal(js_profiler_check("/nonexistent/libx.so", why, sizeof why), -1);
    assert_string_equal(why, "No such file or directory");
    assert_int_equal(js_profiler_check("/tmp", why, sizeof why), -1);
    assert_string_equal(why, "not a regular file readable by all");
    write_file(path, "hello\n", 6, 0600);
    assert_int_equal(js_profiler_check(path, why, sizeof why), -1);
    assert_string_equal(why, "not a regular file readable by all");
    chmod(path, 0644);
    assert_int_equal(js_profiler_check(path, why, sizeof why), -1);
    assert_string_equal(why, "not an ELF file");
    unlink(path);
    assert_int_equal(js_profiler_check("/proc/self/exe", why, sizeof why), -1); /* this test: an executable */
    assert_string_equal(why, "an ELF executable, not a shared library");
    /* a 32-bit shared object's header (class 1, little-endian, ET_DYN, no program headers) */
    unsigned char h[64] = { 0x7f, 'E', 'L', 'F', 1, 1, 1 };
    h[16] = 3;  /* ET_DYN */
    h[18] = 3;  /* EM_386 */
    h[42] = 32; /* e_phentsize */
    write_file(path, h, sizeof h, 0644);
    assert_int_equal(js_profiler_check(path, why, sizeof why), -1);
    if (sizeof(void *) == 8)
        assert_string_equal(why, "a 32-bit ELF library, the tasks are 64-bit");
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_arguments_parse_into_the_struct),
        cmocka_unit_test(bad_arguments_are_named),
        cmocka_unit_test(spool_share_and_collector),
        cmocka_unit_test(gpu_arguments),
        cmocka_unit_test(decision_follows_the_documented_order),
        cmocka_unit_test(preload_holds_the_profiler_once),
        cmocka_unit_test(preload_loses_the_profiler_when_the_step_opts_out),
        cmocka_unit_test(booleans_and_lists),
        cmocka_unit_test(profiler_must_be_a_loadable_shared_library),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

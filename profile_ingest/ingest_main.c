/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile_ingest: loads the jobscreen spool into PostgreSQL (profile_ingest(8), docs/ingest.md).
 *
 * The unit of work is one step record (SPOOL/job.<id>/step.<step>.<node>.json) with that
 * node's profiles of that step: validated, then written in one transaction whose first row
 * is the exactly-once key (js_data.step_nodes); files leave the spool only after COMMIT.
 *
 * This file is the daemon: the command line and its one-shot modes, the privileges, the
 * configuration and its reload, the signals, and the loops that run passes (pass.c) once or
 * for ever, on inotify events or every rescan_seconds, backing off while the database is away.
 */
#include "config.h"

#include "ingest.h"
#include "ingest_conf.h"
#include "ingest_spool.h"
#include "kvconf.h"
#include "log.h"
#include "metrics.h"
#include "setup.h"

#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <linux/capability.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested, reload_requested;

static void on_signal(int sig)
{
    if (sig == SIGHUP)
        reload_requested = 1;
    else
        stop_requested = 1;
}

/* ---- privileges ------------------------------------------------------------------------ */
/* Started as root: become the service account, keeping CAP_DAC_OVERRIDE only (to read the
 * users' profile directories and remove ingested files); nothing that runs as root parses a
 * file a user could write.  0, or -1 logged. */
static int drop_root(const char *user)
{
    if (geteuid() != 0)
        return 0;
    if (!user) {
        pi_warn("running as root while parsing files that users wrote: set \"user\" (a service account) "
                "or run it as one with CAP_DAC_OVERRIDE (see profile_ingest(8))");
        return 0;
    }
    struct passwd *pw = getpwnam(user);
    if (!pw) {
        pi_error("user \"%s\": no such account", user);
        return -1;
    }
    struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    data[0].effective = data[0].permitted = 1u << CAP_DAC_OVERRIDE;
    if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0 || setgroups(0, NULL) < 0 ||
        setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) < 0 || setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) < 0 ||
        syscall(SYS_capset, &hdr, data) < 0 || prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0 ||
        prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
        pi_error("cannot become \"%s\" with CAP_DAC_OVERRIDE: %s", user, strerror(errno));
        return -1;
    }
    if (setuid(0) == 0) {
        pi_error("still able to regain root after dropping it: stopping");
        return -1;
    }
    pi_info("running as %s (uid %u) with CAP_DAC_OVERRIDE only", user, (unsigned)pw->pw_uid);
    return 0;
}

/* ---- configuration ------------------------------------------------------------------- */
static int set_override(void *conf, const char *key, const char *value, char *why, size_t whysize)
{
    return pi_conf_set(conf, key, value, why, whysize);
}

static int load_conf(struct ctx *c, struct pi_conf *out)
{
    char err[1024];
    pi_conf_defaults(out);
    if (c->conf_path && (c->conf_required || access(c->conf_path, F_OK) == 0)) {
        if (pi_conf_load(out, c->conf_path, err, sizeof err) < 0) {
            pi_error("configuration: %s", err);
            return -1;
        }
    }
    /* --set key=value: one line of a configuration file, read by the same rules (blanks around
     * the key and the value, comments) */
    for (int i = 0; i < c->noverrides; i++) {
        if (!strchr(c->overrides[i], '=')) {
            pi_error("configuration: \"%s\" is not key=value", c->overrides[i]);
            return -1;
        }
        if (js_kv_parse_text(c->overrides[i], "--set", set_override, out, err, sizeof err) < 0) {
            pi_error("configuration: %s", err);
            return -1;
        }
    }
    return 0;
}

static void apply_conf(struct ctx *c)
{
    snprintf(c->qdir, sizeof c->qdir, "%s", c->conf.quarantine);
    pi_log_open(c->conf.syslog, (enum pi_level)c->conf.log_level);
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: profile_ingest [options]\n"
        "  --once                 ingest what the spool holds, then exit (for cron and the demo)\n"
        "  --migrate              apply the schema migrations, then exit\n"
        "  --dump FILE            print a bundle or profile of the spool as readable JSON (a bundle's\n"
        "                         series decoded slice by slice), then exit; needs no database\n"
        "  --status               print the backlog of the spool and the ingest rate, then exit\n"
        "  --retention            apply the retention settings of the database (every table class), then exit\n"
        "  --retention-dry-run    say what --retention would remove, then exit\n"
        "  --setup-roles          as a PostgreSQL superuser: create what is missing of the owner role,\n"
        "                         jobscreen_report, the web role and the database, migrate as the owner, then exit\n"
        "  --owner ROLE           --setup-roles: the ingest's login role, owner of the schema (default " PI_SETUP_OWNER_DEFAULT ")\n"
        "  --web-role ROLE        --setup-roles: the web CGI's login role (default " PI_SETUP_WEB_ROLE_DEFAULT ")\n"
        "  -c, --config FILE      configuration file (default " PI_CONF_DEFAULT_PATH ")\n"
        "  --spool DIR            spool directory (key spool)\n"
        "  --db CONNINFO          libpq connection string (key db)\n"
        "  --quarantine DIR       quarantine directory (key quarantine)\n"
        "  --archive DIR          move ingested files here instead of removing them (key archive)\n"
        "  --log-level LEVEL      error, warn, info or debug (key log_level)\n"
        "  --syslog               log to syslog instead of stderr\n"
        "  --no-migrate           do not apply migrations at start\n"
        "  --user NAME            started as root: run as NAME with CAP_DAC_OVERRIDE only (key user)\n"
        "  -s, --set KEY=VALUE    any configuration key (see profile_ingest(8))\n"
        "  -h, --help             this text\n");
}

static int wait_events(struct ctx *c, int timeout_ms)
{
    struct pollfd p = { .fd = c->inotify_fd, .events = POLLIN };
    int r = poll(&p, c->inotify_fd >= 0 ? 1 : 0, timeout_ms);
    if (r > 0) {
        /* let a burst of files settle, then drain */
        usleep(100000);
        char buf[65536];
        while (read(c->inotify_fd, buf, sizeof buf) > 0)
            ;
    }
    return r;
}

/* What the command line asks for besides the configuration (whose keys go to c->overrides). */
struct mode {
    int once, migrate_only, status, setup_roles;
    const char *dump;          /* --dump FILE */
    int retention;             /* 1: apply, 2: dry run */
    const char *owner, *web_role;
};

/* The command line into c and m: -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, struct ctx *c, struct mode *m)
{
    enum { O_ONCE = 256, O_MIGRATE, O_STATUS, O_SPOOL, O_DB, O_QUAR, O_ARCH, O_LEVEL, O_SYSLOG, O_NOMIG, O_USER,
           O_RETENTION, O_RETENTION_DRY, O_SETUP_ROLES, O_OWNER, O_WEB_ROLE, O_DUMP };
    static const struct option opts[] = {
        { "once", no_argument, 0, O_ONCE }, { "migrate", no_argument, 0, O_MIGRATE },
        { "status", no_argument, 0, O_STATUS }, { "config", required_argument, 0, 'c' },
        { "retention", no_argument, 0, O_RETENTION }, { "retention-dry-run", no_argument, 0, O_RETENTION_DRY },
        { "spool", required_argument, 0, O_SPOOL }, { "db", required_argument, 0, O_DB },
        { "quarantine", required_argument, 0, O_QUAR }, { "archive", required_argument, 0, O_ARCH },
        { "log-level", required_argument, 0, O_LEVEL }, { "syslog", no_argument, 0, O_SYSLOG },
        { "no-migrate", no_argument, 0, O_NOMIG }, { "set", required_argument, 0, 's' },
        { "user", required_argument, 0, O_USER },
        { "setup-roles", no_argument, 0, O_SETUP_ROLES }, { "owner", required_argument, 0, O_OWNER },
        { "web-role", required_argument, 0, O_WEB_ROLE }, { "dump", required_argument, 0, O_DUMP },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
    };
    int o;
    char kv[8192];
#define OVERRIDE(k, v) do { snprintf(kv, sizeof kv, "%s=%s", (k), (v)); c->overrides[c->noverrides++] = strdup(kv); } while (0)
    while ((o = getopt_long(argc, argv, "c:s:h", opts, NULL)) != -1) {
        switch (o) {
        case O_ONCE: m->once = 1; break;
        case O_MIGRATE: m->migrate_only = 1; break;
        case O_STATUS: m->status = 1; break;
        case O_RETENTION: m->retention = 1; break;
        case O_RETENTION_DRY: m->retention = 2; break;
        case O_SETUP_ROLES: m->setup_roles = 1; break;
        case O_OWNER: m->owner = optarg; break;
        case O_WEB_ROLE: m->web_role = optarg; break;
        case O_DUMP: m->dump = optarg; break;
        case 'c': c->conf_path = optarg; c->conf_required = 1; break;
        case O_SPOOL: OVERRIDE("spool", optarg); break;
        case O_DB: OVERRIDE("db", optarg); break;
        case O_QUAR: OVERRIDE("quarantine", optarg); break;
        case O_ARCH: OVERRIDE("archive", optarg); break;
        case O_LEVEL: OVERRIDE("log_level", optarg); break;
        case O_SYSLOG: OVERRIDE("syslog", "yes"); break;
        case O_NOMIG: OVERRIDE("migrate", "no"); break;
        case O_USER: OVERRIDE("user", optarg); break;
        case 's': c->overrides[c->noverrides++] = strdup(optarg); break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
#undef OVERRIDE
    if (optind < argc) {
        fprintf(stderr, "profile_ingest: unexpected argument \"%s\"\n", argv[optind]);
        usage(stderr);
        return 2;
    }
    if ((m->owner || m->web_role) && !m->setup_roles) {
        fprintf(stderr, "profile_ingest: --owner and --web-role go with --setup-roles\n");
        return 2;
    }
    return -1;
}

/* ---- the one-shot modes: their exit status ---------------------------------------------- */

static int run_migrate(struct ctx *c)
{
    int rc = pi_db_ensure(&c->db, 0);
    if (rc == PI_DB_OK)
        rc = pi_db_migrate(&c->db);
    pi_db_close(&c->db);
    return rc == PI_DB_OK ? 0 : rc == PI_DB_RETRY ? 75 : 1;
}

/* the daily timer's run (contrib/systemd/jobscreen-retention.timer) */
static int run_retention(struct ctx *c, int dry_run)
{
    int rc = pi_db_ensure(&c->db, c->conf.migrate);
    if (rc == PI_DB_OK)
        rc = pi_db_retention(&c->db, dry_run, stdout);
    else
        fprintf(stderr, "profile_ingest: the database is not available\n");
    pi_db_close(&c->db);
    return rc == PI_DB_OK ? 0 : rc == PI_DB_RETRY ? 75 : 1;
}

static int run_status(struct ctx *c)
{
    struct scan_result r;
    pi_scan(c, &r, 1);
    printf("spool: %s\nbacklog: %ld step records waiting\n", c->conf.spool, r.backlog);
    int rc = pi_db_ensure(&c->db, 0);
    if (rc == PI_DB_OK)
        rc = pi_db_status(&c->db, stdout);
    else
        printf("database: unavailable\n");
    pi_db_close(&c->db);
    return rc == PI_DB_OK ? 0 : 1;
}

/* ---- the passes: once, or the daemon ------------------------------------------------------ */

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

static int next_backoff(const struct ctx *c, int backoff)
{
    return backoff * 2 > c->conf.backoff_max_seconds ? c->conf.backoff_max_seconds : backoff * 2;
}

/* --once: passes until one ingests nothing more (retrying a database that is away up to
 * once_retries times), then exit: 0, 1 (a step record failed) or 75 (the database away). */
static int run_once(struct ctx *c)
{
    int attempts = 0, backoff = 1;
    struct scan_result r;
    long steps = 0, profiles = 0, slices = 0, refused = 0, deferred = 0;
    int idle = 0; /* passes in a row that ingested nothing */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        pi_scan(c, &r, 0);
        if (!r.retry) /* the replies once the spool is done: the pass that found nothing more */
            pi_rollup(c, &r, PI_INSIGHT_ALL, r.steps > 0 ? PI_KEEP_NONE : PI_KEEP_ALL);
        steps += r.steps;
        profiles += r.profiles;
        slices += r.slices;
        refused += r.refused;
        deferred += r.deferred;
        idle = r.steps > 0 ? 0 : idle + 1;
        if (!r.retry && !stop_requested && (r.steps > 0 || (r.deferred > 0 && idle < 3)))
            continue; /* the files of this pass went at its end: one more pass cleans the job directories
                       * and takes what the budgets left */
        if (!r.retry && !stop_requested && r.insights > 0 && r.insights_queued > 0)
            continue; /* a pass computes a batch of insights: the next one takes the rest */
        if (!r.retry || stop_requested || attempts >= c->conf.once_retries)
            break;
        attempts++;
        pi_warn("database unavailable: retrying in %d s (attempt %d of %d); the spool is kept (%ld step records waiting)",
                backoff, attempts, c->conf.once_retries, r.backlog);
        sleep((unsigned)backoff);
        backoff = next_backoff(c, backoff);
    }
    pi_quarantine_expire(c->qdir, c->conf.quarantine_days);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    pi_info("done: %ld step records, %ld profiles, %ld slice rows, %ld files quarantined; %.2f s, %.1f step records/s; backlog %ld%s",
            steps, profiles, slices, refused, secs, secs > 0 ? (double)steps / secs : 0.0, r.backlog,
            deferred ? " (the budgets made some wait for a later pass)" : "");
    pi_db_close(&c->db);
    pi_conf_free(&c->conf);
    return r.retry ? 75 : r.failed ? 1 : 0;
}

/* SIGHUP: the configuration read again; a bad one leaves the old one in force. */
static void reload_conf(struct ctx *c)
{
    struct pi_conf fresh;
    if (load_conf(c, &fresh) == 0) {
        int newdb = strcmp(fresh.db, c->conf.db) != 0;
        pi_conf_free(&c->conf);
        c->conf = fresh;
        apply_conf(c);
        if (newdb) {
            pi_db_close(&c->db);
            pi_db_init(&c->db, c->conf.db);
        }
        pi_info("configuration reloaded");
    } else {
        pi_conf_free(&fresh);
        pi_warn("configuration not reloaded: the old one stays");
    }
}

/* The ingest rate, logged after a pass that ingested and at least once a minute while
 * something waits. */
struct rate {
    time_t last_report;
    long steps, slices;        /* since last_report */
};

static void report_rate(struct rate *w, const struct scan_result *r, time_t now)
{
    w->steps += r->steps;
    w->slices += r->slices;
    if (r->steps > 0 || now - w->last_report >= 60) {
        if (w->steps > 0 || r->backlog > 0)
            pi_info("rate: %ld step records, %ld slice rows in the last %ld s; backlog %ld step records",
                    w->steps, w->slices, (long)(now - w->last_report) + 1, r->backlog);
        if (now - w->last_report >= 60) {
            w->last_report = now;
            w->steps = w->slices = 0;
        }
    }
}

/* The daemon's watches on the spool and its metrics endpoint. */
static void start_daemon(struct ctx *c)
{
    c->inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (c->inotify_fd < 0 || inotify_add_watch(c->inotify_fd, c->conf.spool, IN_CREATE | IN_MOVED_TO | IN_ONLYDIR) < 0)
        pi_warn("inotify on %s: %s: rescanning every %d s only", c->conf.spool, strerror(errno), c->conf.rescan_seconds);
    pi_info("started: spool %s, quarantine %s, rescan every %d s", c->conf.spool, c->qdir, c->conf.rescan_seconds);
    if (c->conf.metrics_listen) {
        char why[320];
        if (pi_metrics_start(c->conf.metrics_listen, why, sizeof why) < 0)
            pi_error("%s: no metrics are served (the ingest goes on)", why);
        else
            pi_info("metrics: http://%s/metrics", c->conf.metrics_listen);
    }
}

/* The daemon: a pass, then wait for files (or the rescan, or the backoff) until stopped. */
static int run_daemon(struct ctx *c)
{
    start_daemon(c);
    int backoff = 1;
    struct rate w = { time(NULL), 0, 0 };
    time_t last_expire = 0;
    while (!stop_requested) {
        if (reload_requested) {
            reload_requested = 0;
            reload_conf(c);
        }
        struct scan_result r;
        pi_scan(c, &r, 0);
        if (!r.retry && !stop_requested)
            pi_rollup(c, &r, PI_INSIGHT_DUE, PI_KEEP_PASS);
        pi_metrics_pass(r.backlog, r.deferred, !r.retry, r.failed);
        time_t now = time(NULL);
        if (now - last_expire >= 3600) {
            pi_quarantine_expire(c->qdir, c->conf.quarantine_days);
            last_expire = now;
        }
        report_rate(&w, &r, now);
        if (stop_requested)
            break;
        if (r.retry) {
            pi_warn("database unavailable: retrying in %d s; the spool is kept (%ld step records waiting)", backoff, r.backlog);
            wait_events(c, backoff * 1000);
            backoff = next_backoff(c, backoff);
            continue;
        }
        if (backoff > 1)
            pi_info("database back: resumed");
        backoff = 1;
        /* what the budgets left waits for the next pass, not for the rescan */
        wait_events(c, r.deferred > 0 ? 0 : c->conf.rescan_seconds * 1000);
    }
    struct scan_result r;
    memset(&r, 0, sizeof r);
    pi_rollup(c, &r, PI_INSIGHT_NONE, PI_KEEP_NONE); /* best effort: what is left is folded (and analysed) by the next daemon */
    pi_info("stopping on request");
    pi_db_close(&c->db);
    pi_conf_free(&c->conf);
    return 0;
}

int main(int argc, char **argv)
{
    struct ctx c;
    struct mode m;
    memset(&c, 0, sizeof c);
    memset(&m, 0, sizeof m);
    json_object_seed(0); /* before any thread: the hash seed is process-wide */
    c.inotify_fd = -1;
    c.stop = &stop_requested;
    c.conf_path = PI_CONF_DEFAULT_PATH;
    c.overrides = calloc((size_t)argc * 2 + 4, sizeof *c.overrides);
    int rc = parse_options(argc, argv, &c, &m);
    if (rc >= 0)
        return rc;
    if (m.dump) /* a file, whoever reads it: no configuration, no database, no privileges */
        return pi_dump(m.dump);
    /* run by the database's admin (sudo -u postgres), who may not read a file holding the
     * ingest's password: only the connection string is wanted */
    if (m.setup_roles && !c.conf_required && access(c.conf_path, F_OK) == 0 && access(c.conf_path, R_OK) != 0) {
        fprintf(stderr, "profile_ingest: %s is not readable: --setup-roles goes on with --db or the default connection\n",
                c.conf_path);
        c.conf_path = NULL;
    }
    if (load_conf(&c, &c.conf) < 0)
        return 2;
    apply_conf(&c);
    /* before drop_root: it reads no spool, and peer authentication knows whoever ran it */
    if (m.setup_roles) {
        rc = pi_setup_roles(c.conf.db, m.owner ? m.owner : PI_SETUP_OWNER_DEFAULT,
                            m.web_role ? m.web_role : PI_SETUP_WEB_ROLE_DEFAULT);
        pi_conf_free(&c.conf);
        return rc;
    }
    if (drop_root(c.conf.user) < 0)
        return 2;
    pi_db_init(&c.db, c.conf.db);
    if (m.migrate_only)
        return run_migrate(&c);
    if (m.retention)
        return run_retention(&c, m.retention == 2);
    if (m.status)
        return run_status(&c);
    catch_signals();
    return m.once ? run_once(&c) : run_daemon(&c);
}

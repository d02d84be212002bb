/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include "ingest_conf.h"
#include "kvconf.h"
#include "log.h"
#include "profile_format.h"

#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_list(char **list, const char *value)
{
    for (int i = 0; i < PI_MAX_LIST; i++) {
        free(list[i]);
        list[i] = NULL;
    }
    const char *cursor = value, *elem;
    size_t len;
    for (int n = 0; n < PI_MAX_LIST && (elem = js_kv_list_next(&cursor, &len)); n++)
        list[n] = strndup(elem, len);
}

void pi_conf_defaults(struct pi_conf *c)
{
    memset(c, 0, sizeof *c);
    c->db = strdup("dbname=jobscreen");
    c->spool = strdup("/var/spool/jobscreen");
    c->cluster = strdup("default");
    c->rescan_seconds = 30;
    c->max_profile_bytes = JS_PROFILE_MAX_BYTES;
    c->max_profiles = 100000;
    c->user_budget_bytes = 128LL << 20;
    c->pass_budget_bytes = 512LL << 20;
    c->node_cpus_max = 4096;
    c->node_bytes_per_second_max = 4000000000000LL; /* 4 TB/s: beyond any node's memory bandwidth */
    c->backoff_max_seconds = 60;
    c->once_retries = 5;
    c->job_grace_seconds = 300;
    c->orphan_grace_seconds = 7 * 86400;
    c->insight_settle_seconds = 30;
    c->replies_min_jobs = 20;
    c->replies_min_step_slices = 100000;
    c->replies_min_job_rows = 500;
    c->replies_min_file_rows = 200;
    c->replies_settle_seconds = 30;
    c->quarantine = strdup(PI_QUARANTINE_DEFAULT);
    c->quarantine_days = 30;
    c->record_uid = 0;
    c->migrate = 1;
    c->log_level = PI_INFO;
    set_list(c->shared_fs, "nfs nfs4 lustre gpfs beegfs cephfs ceph glusterfs fuse.glusterfs panfs wekafs");
    set_list(c->no_edge_prefix, "/dev/ /proc/ /sys/ /run/ /etc/ /usr/ /lib/ /lib64/ /bin/ /sbin/ /var/lib/ /var/cache/");
}

void pi_conf_free(struct pi_conf *c)
{
    free(c->db);
    free(c->spool);
    free(c->quarantine);
    free(c->archive);
    free(c->cluster);
    free(c->user);
    free(c->metrics_listen);
    for (int i = 0; i < PI_MAX_LIST; i++) {
        free(c->shared_fs[i]);
        free(c->no_edge_prefix[i]);
    }
    memset(c, 0, sizeof *c);
}

static void set_str(char **dst, const char *v)
{
    free(*dst);
    *dst = *v ? strdup(v) : NULL;
}

/* The keys whose value is a whole number in a range (an int of struct pi_conf). 1: it was one
 * of them (set, or err says why not); 0: another key. */
static int set_int_key(struct pi_conf *c, const char *key, const char *value, char *err, size_t errsize)
{
    static const struct {
        const char *key;
        size_t off;
        long long lo, hi;
    } ints[] = {
        { "rescan_seconds", offsetof(struct pi_conf, rescan_seconds), 1, 86400 },
        { "max_profiles", offsetof(struct pi_conf, max_profiles), 1, 10000000 },
        { "node_cpus_max", offsetof(struct pi_conf, node_cpus_max), 1, 1 << 20 },
        { "backoff_max_seconds", offsetof(struct pi_conf, backoff_max_seconds), 1, 3600 },
        { "once_retries", offsetof(struct pi_conf, once_retries), 0, 1000 },
        { "job_grace_seconds", offsetof(struct pi_conf, job_grace_seconds), 0, 30 * 86400 },
        { "orphan_grace_seconds", offsetof(struct pi_conf, orphan_grace_seconds), 0, 365 * 86400 },
        { "insight_settle_seconds", offsetof(struct pi_conf, insight_settle_seconds), 0, 86400 },
        { "replies_min_jobs", offsetof(struct pi_conf, replies_min_jobs), 1, INT_MAX },
        { "replies_min_step_slices", offsetof(struct pi_conf, replies_min_step_slices), 1, INT_MAX },
        { "replies_min_job_rows", offsetof(struct pi_conf, replies_min_job_rows), 1, INT_MAX },
        { "replies_min_file_rows", offsetof(struct pi_conf, replies_min_file_rows), 1, INT_MAX },
        { "replies_settle_seconds", offsetof(struct pi_conf, replies_settle_seconds), 0, 86400 },
        { "quarantine_days", offsetof(struct pi_conf, quarantine_days), 0, 36500 },
        { "record_uid", offsetof(struct pi_conf, record_uid), 0, INT_MAX },
    };
    long long n;
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        if (strcmp(key, ints[i].key) != 0)
            continue;
        if (js_kv_int(value, ints[i].lo, ints[i].hi, &n) < 0) {
            snprintf(err, errsize, "%s: \"%s\" is not a whole number from %lld to %lld", key, value, ints[i].lo, ints[i].hi);
            return -1;
        }
        *(int *)((char *)c + ints[i].off) = (int)n;
        return 1;
    }
    return 0;
}

/* The keys whose value is a string or a list, and the yes/no ones; as set_int_key. */
static int set_text_or_bool_key(struct pi_conf *c, const char *key, const char *value, char *err, size_t errsize)
{
    static const struct {
        const char *key;
        size_t off;
    } strs[] = {
        { "db", offsetof(struct pi_conf, db) }, { "spool", offsetof(struct pi_conf, spool) },
        { "quarantine", offsetof(struct pi_conf, quarantine) }, { "archive", offsetof(struct pi_conf, archive) },
        { "cluster", offsetof(struct pi_conf, cluster) }, { "user", offsetof(struct pi_conf, user) },
        { "metrics_listen", offsetof(struct pi_conf, metrics_listen) },
    }, bools[] = {
        { "migrate", offsetof(struct pi_conf, migrate) }, { "syslog", offsetof(struct pi_conf, syslog) },
        { "received", offsetof(struct pi_conf, received) },
    };
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        if (!strcmp(key, strs[i].key)) {
            if (!*value && (!strcmp(key, "db") || !strcmp(key, "spool"))) {
                snprintf(err, errsize, "%s: must not be empty", key);
                return -1;
            }
            set_str((char **)((char *)c + strs[i].off), value);
            return 1;
        }
    for (size_t i = 0; i < sizeof bools / sizeof bools[0]; i++)
        if (!strcmp(key, bools[i].key)) {
            int b = js_kv_bool(value);
            if (b < 0) {
                snprintf(err, errsize, "%s: \"%s\" is not yes or no", key, value);
                return -1;
            }
            *(int *)((char *)c + bools[i].off) = b;
            return 1;
        }
    if (!strcmp(key, "shared_fs") || !strcmp(key, "no_edge_prefixes")) {
        set_list(!strcmp(key, "shared_fs") ? c->shared_fs : c->no_edge_prefix, value);
        return 1;
    }
    return 0;
}

/* The keys counted in bytes (sizes and a rate); as set_int_key. */
static int set_bytes_key(struct pi_conf *c, const char *key, const char *value, char *err, size_t errsize)
{
    long long n;
    if (!strcmp(key, "node_bytes_per_second_max")) {
        if (js_kv_int(value, 1000000, 1000000000000000LL, &n) < 0) {
            snprintf(err, errsize, "%s: \"%s\" is not a rate from 10^6 to 10^15 bytes per second", key, value);
            return -1;
        }
        c->node_bytes_per_second_max = n;
    } else if (!strcmp(key, "user_budget_bytes") || !strcmp(key, "pass_budget_bytes")) {
        if (js_kv_size(value, 0, 1LL << 50, &n) < 0 || (n > 0 && n < (1LL << 20))) {
            snprintf(err, errsize, "%s: \"%s\" is not 0 (no limit) or a size from 1048576 to 2^50 bytes", key, value);
            return -1;
        }
        *(!strcmp(key, "user_budget_bytes") ? &c->user_budget_bytes : &c->pass_budget_bytes) = n;
    } else if (!strcmp(key, "max_profile_bytes")) {
        if (js_kv_size(value, 1024, JS_PROFILE_MAX_BYTES, &n) < 0) {
            snprintf(err, errsize, "%s: \"%s\" is not a size from 1024 to %u bytes", key, value, JS_PROFILE_MAX_BYTES);
            return -1;
        }
        c->max_profile_bytes = n;
    } else
        return 0;
    return 1;
}

int pi_conf_set(struct pi_conf *c, const char *key, const char *value, char *err, size_t errsize)
{
    /* record_uid may name the account (www-data for a received spool): the same
     * configuration file then serves hosts whose numbering differs */
    if (!strcmp(key, "record_uid") && *value && strspn(value, "0123456789") != strlen(value)) {
        const struct passwd *pw = getpwnam(value);
        if (!pw) {
            snprintf(err, errsize, "record_uid: \"%s\" is neither a uid nor a user name known here", value);
            return -1;
        }
        c->record_uid = (int)pw->pw_uid;
        return 0;
    }
    if (!strcmp(key, "log_level")) {
        int l = pi_log_level_parse(value);
        if (l < 0) {
            snprintf(err, errsize, "log_level: \"%s\" is not error, warn, info or debug", value);
            return -1;
        }
        c->log_level = l;
        return 0;
    }
    int r = set_int_key(c, key, value, err, errsize);
    if (r == 0)
        r = set_text_or_bool_key(c, key, value, err, errsize);
    if (r == 0)
        r = set_bytes_key(c, key, value, err, errsize);
    if (r == 0) {
        snprintf(err, errsize, "unknown key \"%s\"", key);
        return -1;
    }
    return r < 0 ? -1 : 0;
}

static int set_from_file(void *conf, const char *key, const char *value, char *why, size_t whysize)
{
    return pi_conf_set(conf, key, value, why, whysize);
}

int pi_conf_load(struct pi_conf *c, const char *path, char *err, size_t errsize)
{
    return js_kv_parse_file(path, set_from_file, c, err, errsize);
}

int pi_conf_is_shared_fs(const struct pi_conf *c, const char *fstype)
{
    for (int i = 0; i < PI_MAX_LIST && c->shared_fs[i]; i++)
        if (!strcmp(c->shared_fs[i], fstype))
            return 1;
    return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CGI's configuration file (jobscreen-web.conf(5)), read by common/kvconf.c. */
#include "config.h"

#include <ctype.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "credential.h"
#include "kvconf.h"
#include "jsweb.h"

void jsw_config_defaults(struct jsw_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    snprintf(cfg->conninfo, sizeof cfg->conninfo, "dbname=jobscreen");
    cfg->statement_timeout_ms = 10000;
    cfg->max_rows = 5000;
    cfg->background_min_jobs = 3;
    cfg->co2_g_per_kwh = -1;
}

static int add_admins(struct jsw_config *cfg, const char *list, char *why, size_t whysize)
{
    const char *cursor = list, *elem;
    size_t len;
    while ((elem = js_kv_list_next(&cursor, &len))) {
        char name[JSW_NAME_MAX];
        if (len < sizeof name) {
            memcpy(name, elem, len);
            name[len] = '\0';
        }
        if (len >= sizeof name || !jsw_user_name_valid(name)) {
            snprintf(why, whysize, "admins: '%.*s' is not a valid user name", (int)len, elem);
            return -1;
        }
        if (cfg->n_admins >= JSW_MAX_ADMINS) {
            snprintf(why, whysize, "admins: more than %d names (use admin_group)", JSW_MAX_ADMINS);
            return -1;
        }
        memcpy(cfg->admins[cfg->n_admins++], name, len + 1);
    }
    return 0;
}

/* one key of web.conf; the line's position is added by common/kvconf.c */
static int set_key(void *ctx, const char *key, const char *val, char *why, size_t whysize)
{
    struct jsw_config *cfg = ctx;
    long long n;
    int b;
    if (!strcmp(key, "conninfo")) {
        if (strlen(val) >= sizeof cfg->conninfo) {
            snprintf(why, whysize, "conninfo longer than %zu characters", sizeof cfg->conninfo - 1);
            return -1;
        }
        snprintf(cfg->conninfo, sizeof cfg->conninfo, "%s", val);
    } else if (!strcmp(key, "admins")) {
        return add_admins(cfg, val, why, whysize);
    } else if (!strcmp(key, "admin_group")) {
        if (!jsw_user_name_valid(val)) {
            snprintf(why, whysize, "admin_group: '%s' is not a valid group name", val);
            return -1;
        }
        snprintf(cfg->admin_group, sizeof cfg->admin_group, "%s", val);
    } else if (!strcmp(key, "statement_timeout")) {
        if (js_kv_int(val, 0, 600000, &n)) {
            snprintf(why, whysize, "statement_timeout: '%s' is not 0-600000 (ms)", val);
            return -1;
        }
        cfg->statement_timeout_ms = (int)n;
    } else if (!strcmp(key, "max_rows")) {
        if (js_kv_int(val, 1, 1000000, &n)) {
            snprintf(why, whysize, "max_rows: '%s' is not 1-1000000", val);
            return -1;
        }
        cfg->max_rows = (int)n;
    } else if (!strcmp(key, "users_cluster")) {
        if (!jsw_user_name_valid(val) || strlen(val) >= sizeof cfg->users_cluster) {
            snprintf(why, whysize, "users_cluster: '%s' is not a valid cluster name", val);
            return -1;
        }
        snprintf(cfg->users_cluster, sizeof cfg->users_cluster, "%s", val);
    } else if (!strcmp(key, "background_min_jobs")) {
        if (js_kv_int(val, 1, 1000, &n)) {
            snprintf(why, whysize, "background_min_jobs: '%s' is not 1-1000", val);
            return -1;
        }
        cfg->background_min_jobs = (int)n;
    } else if (!strcmp(key, "co2_g_per_kwh")) {
        if (js_kv_int(val, 0, 100000, &n)) {
            snprintf(why, whysize, "co2_g_per_kwh: '%s' is not a whole number of grams from 0 to 100000", val);
            return -1;
        }
        cfg->co2_g_per_kwh = (int)n;
    } else if (!strcmp(key, "munge_auth")) {
        if ((b = js_kv_bool(val)) < 0) {
            snprintf(why, whysize, "munge_auth: '%s' is not yes or no", val);
            return -1;
        }
        cfg->munge_auth = b;
    } else if (!strcmp(key, "munge_socket")) {
        if (val[0] != '/' || strlen(val) >= sizeof cfg->munge_socket) {
            snprintf(why, whysize, "munge_socket: '%s' is not an absolute path of at most %zu characters", val,
                     sizeof cfg->munge_socket - 1);
            return -1;
        }
        snprintf(cfg->munge_socket, sizeof cfg->munge_socket, "%s", val);
    } else {
        snprintf(why, whysize, "unknown key '%s'", key);
        return -1;
    }
    return 0;
}

int jsw_config_parse(struct jsw_config *cfg, const char *text, char *err, size_t errlen)
{
    return js_kv_parse_text(text, NULL, set_key, cfg, err, errlen);
}

int jsw_config_load(struct jsw_config *cfg, const char *path, char *err, size_t errlen)
{
    return js_kv_parse_file(path, set_key, cfg, err, errlen);
}

bool jsw_user_name_valid(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n == 0 || n >= JSW_NAME_MAX || name[0] == '-' || name[0] == '.')
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        if (!(isalnum(c) || c == '.' || c == '_' || c == '-' || c == '@'))
            return false;
    }
    return true;
}

static bool in_group(const char *user, const char *group)
{
    struct group *gr = getgrnam(group);
    if (!gr)
        return false;
    for (char **m = gr->gr_mem; m && *m; m++)
        if (!strcmp(*m, user))
            return true;
    struct passwd *pw = getpwnam(user);
    return pw && pw->pw_gid == gr->gr_gid;
}

bool jsw_is_admin(const struct jsw_config *cfg, const char *user)
{
    for (int i = 0; i < cfg->n_admins; i++)
        if (!strcmp(cfg->admins[i], user))
            return true;
    return cfg->admin_group[0] && in_group(user, cfg->admin_group);
}

int jsw_munge_user(const struct jsw_config *cfg, const char *cred, const char *query, char *user, size_t usize,
                   char *err, size_t errlen)
{
    if (!query)
        query = "";
    size_t n = strlen(JS_CLI_CREDENTIAL_PREFIX) + strlen(query);
    char *covered = malloc(n + 1);
    if (!covered) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(covered, n + 1, "%s%s", JS_CLI_CREDENTIAL_PREFIX, query);
    uid_t uid;
    int rc = js_credential_check(cfg->munge_socket[0] ? cfg->munge_socket : NULL, cred, covered, n, JS_ANY_UID, &uid,
                                 err, errlen);
    free(covered);
    if (rc < 0)
        return -1;
    struct passwd pw, *found = NULL;
    char buf[4096];
    if (getpwuid_r(uid, &pw, buf, sizeof buf, &found) != 0 || !found) {
        snprintf(err, errlen, "the credential's uid %u has no user name on the web server", (unsigned)uid);
        return -1;
    }
    if (!jsw_user_name_valid(found->pw_name) || strlen(found->pw_name) >= usize) {
        snprintf(err, errlen, "the credential's user name is not one jobscreen accepts");
        return -1;
    }
    snprintf(user, usize, "%s", found->pw_name);
    return 0;
}

/* The CGI's configuration file: "key = value" lines, '#' comments (jobscreen-web.conf(5)). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <unistd.h>

#include "credential.h"
#include "jsweb.h"

void jsw_config_defaults(struct jsw_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    snprintf(cfg->conninfo, sizeof cfg->conninfo, "dbname=jobscreen");
    cfg->statement_timeout_ms = 10000;
    cfg->max_rows = 5000;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

static int parse_int(const char *v, int min, int max, int *out)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || end == v || *end || n < min || n > max)
        return -1;
    *out = (int)n;
    return 0;
}

static int parse_bool(const char *v, bool *out)
{
    if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcmp(v, "1") || !strcasecmp(v, "on"))
        *out = true;
    else if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcmp(v, "0") || !strcasecmp(v, "off"))
        *out = false;
    else
        return -1;
    return 0;
}

static int add_admins(struct jsw_config *cfg, char *list, int line, char *err, size_t errlen)
{
    for (char *tok = strtok(list, ", \t"); tok; tok = strtok(NULL, ", \t")) {
        if (!jsw_user_name_valid(tok)) {
            snprintf(err, errlen, "line %d: admins: '%s' is not a valid user name", line, tok);
            return -1;
        }
        if (cfg->n_admins >= JSW_MAX_ADMINS) {
            snprintf(err, errlen, "line %d: admins: more than %d names (use admin_group)", line,
                     JSW_MAX_ADMINS);
            return -1;
        }
        snprintf(cfg->admins[cfg->n_admins++], JSW_NAME_MAX, "%s", tok);
    }
    return 0;
}

int jsw_config_parse(struct jsw_config *cfg, const char *text, char *err, size_t errlen)
{
    char *copy = strdup(text);
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0, line = 0;
    for (char *l = copy, *next; l; l = next) {
        next = strchr(l, '\n');
        if (next)
            *next++ = '\0';
        line++;
        char *hash = strchr(l, '#');
        if (hash)
            *hash = '\0';
        char *s = trim(l);
        if (!*s)
            continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            snprintf(err, errlen, "line %d: expected 'key = value'", line);
            rc = -1;
            break;
        }
        *eq = '\0';
        char *key = trim(s), *val = trim(eq + 1);
        if (!strcmp(key, "conninfo")) {
            if (strlen(val) >= sizeof cfg->conninfo) {
                snprintf(err, errlen, "line %d: conninfo longer than %zu characters", line,
                         sizeof cfg->conninfo - 1);
                rc = -1;
                break;
            }
            snprintf(cfg->conninfo, sizeof cfg->conninfo, "%s", val);
        } else if (!strcmp(key, "admins")) {
            if (add_admins(cfg, val, line, err, errlen)) {
                rc = -1;
                break;
            }
        } else if (!strcmp(key, "admin_group")) {
            if (!jsw_user_name_valid(val)) {
                snprintf(err, errlen, "line %d: admin_group: '%s' is not a valid group name", line,
                         val);
                rc = -1;
                break;
            }
            snprintf(cfg->admin_group, sizeof cfg->admin_group, "%s", val);
        } else if (!strcmp(key, "statement_timeout")) {
            if (parse_int(val, 0, 600000, &cfg->statement_timeout_ms)) {
                snprintf(err, errlen, "line %d: statement_timeout: '%s' is not 0-600000 (ms)",
                         line, val);
                rc = -1;
                break;
            }
        } else if (!strcmp(key, "max_rows")) {
            if (parse_int(val, 1, 1000000, &cfg->max_rows)) {
                snprintf(err, errlen, "line %d: max_rows: '%s' is not 1-1000000", line, val);
                rc = -1;
                break;
            }
        } else if (!strcmp(key, "munge_auth")) {
            if (parse_bool(val, &cfg->munge_auth)) {
                snprintf(err, errlen, "line %d: munge_auth: '%s' is not yes or no", line, val);
                rc = -1;
                break;
            }
        } else if (!strcmp(key, "munge_socket")) {
            if (val[0] != '/' || strlen(val) >= sizeof cfg->munge_socket) {
                snprintf(err, errlen, "line %d: munge_socket: '%s' is not an absolute path of at most %zu characters",
                         line, val, sizeof cfg->munge_socket - 1);
                rc = -1;
                break;
            }
            snprintf(cfg->munge_socket, sizeof cfg->munge_socket, "%s", val);
        } else {
            snprintf(err, errlen, "line %d: unknown key '%s'", line, key);
            rc = -1;
            break;
        }
    }
    free(copy);
    return rc;
}

int jsw_config_load(struct jsw_config *cfg, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    char buf[16384];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    int toolong = !feof(f);
    fclose(f);
    if (toolong) {
        snprintf(err, errlen, "%s: larger than %zu bytes", path, sizeof buf - 1);
        return -1;
    }
    buf[n] = '\0';
    if (memchr(buf, '\0', n)) {
        snprintf(err, errlen, "%s: contains a NUL byte", path);
        return -1;
    }
    char perr[256];
    if (jsw_config_parse(cfg, buf, perr, sizeof perr)) {
        snprintf(err, errlen, "%s: %s", path, perr);
        return -1;
    }
    return 0;
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

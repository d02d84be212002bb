/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One request, start to end: configuration, who asks, which endpoint, the reply. A plain CGI
 * answers one request per process; a FastCGI process answers many with one jsw_server, which
 * keeps the configuration and the database connection and nothing of any request. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "credential.h"
#include "jsweb.h"

#ifndef JSW_DEFAULT_CONF
#define JSW_DEFAULT_CONF "/etc/jobscreen/web.conf"
#endif

struct jsw_server {
    bool persistent;
    bool cfg_ok;
    struct jsw_config cfg;
    char conf_path[PATH_MAX];
    struct stat conf_st; /* of the file cfg was read from: read again when it changes */
    jsw_db *db;
};

const char *jsw_io_getenv(const struct jsw_io *io, const char *name)
{
    if (!io || !io->envp)
        return getenv(name);
    size_t n = strlen(name);
    for (char **e = io->envp; *e; e++)
        if (!strncmp(*e, name, n) && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

struct jsw_server *jsw_server_new(bool persistent)
{
    struct jsw_server *s = calloc(1, sizeof *s);
    if (s)
        s->persistent = persistent;
    jsw_db_use_prepared(persistent);
    return s;
}

void jsw_server_free(struct jsw_server *s)
{
    if (!s)
        return;
    jsw_db_close(s->db);
    free(s);
}

static bool same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
           a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
           a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* The configuration for this request: the one read before unless the path or the file
 * changed. A new conninfo or statement timeout drops the kept connection. */
static int server_config(struct jsw_server *s, const struct jsw_io *io, char *err, size_t errlen)
{
    /* the web server's setting for the request (setenv, fastcgi_param), else the process's */
    const char *conf = jsw_io_getenv(io, "JOBSCREEN_CONF");
    if ((!conf || !*conf) && io && io->envp)
        conf = getenv("JOBSCREEN_CONF");
    if (!conf || !*conf)
        conf = JSW_DEFAULT_CONF;
    struct stat st;
    bool have_st = stat(conf, &st) == 0;
    if (s->cfg_ok && have_st && !strcmp(conf, s->conf_path) && same_file(&st, &s->conf_st))
        return 0;
    struct jsw_config cfg;
    jsw_config_defaults(&cfg);
    s->cfg_ok = false;
    if (jsw_config_load(&cfg, conf, err, errlen))
        return -1;
    if (s->db && (strcmp(cfg.conninfo, s->cfg.conninfo) ||
                  cfg.statement_timeout_ms != s->cfg.statement_timeout_ms)) {
        jsw_db_close(s->db);
        s->db = NULL;
    }
    s->cfg = cfg;
    snprintf(s->conf_path, sizeof s->conf_path, "%s", conf);
    if (have_st)
        s->conf_st = st;
    s->cfg_ok = have_st;
    return 0;
}

static int serve(struct jsw_server *s, const struct jsw_io *io)
{
    static struct jsw_request req; /* large-ish: keep it off the stack */
    char err[512] = "";
    int status = 500;

    memset(&req, 0, sizeof req);
    if (server_config(s, io, err, sizeof err)) {
        fprintf(stderr, "jobscreen.cgi: configuration: %s\n", err);
        jsw_reply_error(500, "the server's jobscreen configuration is broken (see its error log)");
        return 500;
    }
    const struct jsw_config *cfg = &s->cfg;

    /* Only the name the web server authenticated counts, or where the site allows it
     * (munge_auth), the user a munge credential proves: the terminal report's way, as Slurm's
     * own commands authenticate. Without either, nothing is shown. */
    const char *user = jsw_io_getenv(io, "REMOTE_USER");
    char proven[JSW_NAME_MAX];
    if ((!user || !*user) && cfg->munge_auth) {
        const char *cred = jsw_io_getenv(io, JS_CREDENTIAL_ENV), *path = jsw_io_getenv(io, "PATH_INFO");
        if (path && *path) {
            /* the credential covers the query string: the endpoint must be named there too */
            jsw_reply_error(401, "not authenticated: a request with a munge credential names its endpoint by q=, "
                                 "not in the path");
            return 401;
        }
        if (!cred || !*cred) {
            jsw_reply_error(401, "not authenticated: no REMOTE_USER and no munge credential (header "
                                 JS_CREDENTIAL_HEADER ")");
            return 401;
        }
        if (jsw_munge_user(cfg, cred, jsw_io_getenv(io, "QUERY_STRING"), proven, sizeof proven, err, sizeof err)) {
            fprintf(stderr, "jobscreen.cgi: munge credential refused: %s\n", err);
            jsw_reply_error(401, "not authenticated: %s", err);
            return 401;
        }
        user = proven;
    }
    if (!user || !*user) {
        jsw_reply_error(401, "not authenticated: the web server passed no REMOTE_USER");
        return 401;
    }
    if (!jsw_user_name_valid(user)) {
        jsw_reply_error(401, "the authenticated user name is not one jobscreen accepts");
        return 401;
    }
    snprintf(req.user, sizeof req.user, "%s", user);
    req.admin = jsw_is_admin(cfg, req.user);
    req.max_rows = cfg->max_rows;
    req.background_min_jobs = cfg->background_min_jobs;
    req.users_cluster = cfg->users_cluster;
    req.co2_g_per_kwh = cfg->co2_g_per_kwh;

    const char *method = jsw_io_getenv(io, "REQUEST_METHOD");
    if (method && strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
        jsw_reply_error(405, "only GET is served");
        return 405;
    }
    if (jsw_parse_query(&req, jsw_io_getenv(io, "QUERY_STRING"), err, sizeof err) ||
        jsw_parse_endpoint(&req, jsw_io_getenv(io, "PATH_INFO"), err, sizeof err)) {
        jsw_reply_error(400, "%s", err);
        return 400;
    }
    const struct jsw_route *route = jsw_route_find(req.endpoint);
    if (!route) {
        jsw_reply_error(404, "no such endpoint '%s'", req.endpoint);
        return 404;
    }

    if (route->needs_db && !s->db) {
        s->db = jsw_db_connect(cfg, err, sizeof err);
        if (!s->db) {
            fprintf(stderr, "jobscreen.cgi: %s\n", err);
            jsw_reply_error(503, "the database is not reachable");
            return 503;
        }
    }
    /* a reply the ingest kept ahead, when this is one and it is current */
    if (route->needs_db && jsw_stored_serve(s->db, &req))
        return 200;
    status = 200;
    err[0] = '\0';
    size_t n = 0;
    char *body = jsw_dispatch(route, route->needs_db ? s->db : NULL, &req, &n, &status, err,
                              sizeof err);
    if (!body) {
        if (status == 200)
            status = 500;
        jsw_reply_error(status, "%s", err[0] ? err : jsw_status_text(status));
        return status;
    }
    jsw_reply_text(200, body, n);
    return 200;
}

int jsw_serve_request(struct jsw_server *s, const struct jsw_io *io)
{
    jsw_reply_to(io, jsw_io_getenv(io, "HTTP_ACCEPT_ENCODING"), jsw_io_getenv(io, "HTTP_IF_NONE_MATCH"));
    int status = serve(s, io);
    /* nothing of the request stays: the connection is back to idle (no transaction left
     * open), or closed and opened anew by the next request that needs it */
    if (s->db && (!s->persistent || !jsw_db_idle(s->db))) {
        jsw_db_close(s->db);
        s->db = NULL;
    }
    jsw_reply_to(NULL, NULL, NULL);
    return status;
}

int jsw_serve(void)
{
    struct jsw_server *s = jsw_server_new(false);
    if (!s) {
        jsw_reply_error(500, "out of memory");
        return 500;
    }
    int status = jsw_serve_request(s, NULL);
    jsw_server_free(s);
    return status;
}

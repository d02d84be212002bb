/* One request, start to end: configuration, who asks, which endpoint, the reply. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsweb.h"

#ifndef JSW_DEFAULT_CONF
#define JSW_DEFAULT_CONF "/etc/jobscreen/web.conf"
#endif

int jsw_serve(void)
{
    static struct jsw_request req; /* large-ish: keep it off the stack */
    struct jsw_config cfg;
    char err[512] = "";
    int status = 500;

    memset(&req, 0, sizeof req);
    jsw_config_defaults(&cfg);
    const char *conf = getenv("JOBSCREEN_CONF");
    if (jsw_config_load(&cfg, conf && *conf ? conf : JSW_DEFAULT_CONF, err, sizeof err)) {
        fprintf(stderr, "jobscreen.cgi: configuration: %s\n", err);
        jsw_reply_error(500, "the server's jobscreen configuration is broken (see its error log)");
        return 500;
    }

    /* Only the name the web server authenticated counts; without one, nothing is shown. */
    const char *user = getenv("REMOTE_USER");
    if (!user || !*user) {
        jsw_reply_error(401, "not authenticated: the web server passed no REMOTE_USER");
        return 401;
    }
    if (!jsw_user_name_valid(user)) {
        jsw_reply_error(401, "the authenticated user name is not one jobscreen accepts");
        return 401;
    }
    snprintf(req.user, sizeof req.user, "%s", user);
    req.admin = jsw_is_admin(&cfg, req.user);
    req.max_rows = cfg.max_rows;

    const char *method = getenv("REQUEST_METHOD");
    if (method && strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
        jsw_reply_error(405, "only GET is served");
        return 405;
    }
    if (jsw_parse_query(&req, getenv("QUERY_STRING"), err, sizeof err) ||
        jsw_parse_endpoint(&req, getenv("PATH_INFO"), err, sizeof err)) {
        jsw_reply_error(400, "%s", err);
        return 400;
    }
    const struct jsw_route *route = jsw_route_find(req.endpoint);
    if (!route) {
        jsw_reply_error(404, "no such endpoint '%s'", req.endpoint);
        return 404;
    }

    jsw_db *db = NULL;
    if (route->needs_db) {
        db = jsw_db_connect(&cfg, err, sizeof err);
        if (!db) {
            fprintf(stderr, "jobscreen.cgi: %s\n", err);
            jsw_reply_error(503, "the database is not reachable");
            return 503;
        }
    }
    status = 200;
    err[0] = '\0';
    json_t *body = jsw_dispatch(route, db, &req, &status, err, sizeof err);
    jsw_db_close(db);
    if (!body) {
        if (status == 200)
            status = 500;
        jsw_reply_error(status, "%s", err[0] ? err : jsw_status_text(status));
        return status;
    }
    jsw_reply(200, body);
    return 200;
}

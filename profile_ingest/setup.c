/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile_ingest --setup-roles: the one recipe for the database and its roles (docs/reports.md,
 * "Roles"), run by a PostgreSQL superuser or a role with CREATEROLE and CREATEDB:
 *
 *   the owner role (LOGIN, nothing more): the ingest connects as it and owns the schema;
 *   jobscreen_report (NOLOGIN): reads schema js, as a migrate creates it (sql/migrate/after.sql);
 *   the web CGI's role (LOGIN), a member of jobscreen_report and nothing more;
 *   the database, owned by the owner;
 *   the migrations, applied as the owner (SET ROLE), so that everything in the schema is its
 *   own and the default privileges js_data.grant_reporting sets grant what later migrates
 *   create in js.
 *
 * Each step looks first and acts only on what is missing, and says on stdout which it was:
 * a second run finds everything in place and changes nothing.  Names go into the SQL quoted by
 * PQescapeIdentifier, values as parameters.
 */
#include "config.h"

#include "setup.h"

#include "ingest_db.h"
#include "log.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPORT_ROLE "jobscreen_report"
/* as sql/migrate/after.sql.in says it */
#define REPORT_ROLE_COMMENT "jobscreen: read-only reporting role (the views of schema js); docs/reports.md"
/* PostgreSQL keeps names of at most NAMEDATALEN - 1 bytes and cuts longer ones: a role
 * created under a cut name would never be found again by the name given */
#define PG_NAME_MAX 63
/* a name quoted as an identifier: each character at most doubled, and the quotes */
#define QUOTED_MAX (2 * PG_NAME_MAX + 3)

struct setup {
    const char *conninfo;  /* as given: server and credentials, used for both databases */
    char *dbname;          /* the database to set up */
    const char *owner, *web;
    int superuser;         /* else CREATEROLE and CREATEDB */
    PGconn *server;        /* the maintenance database: roles and databases */
    PGconn *target;        /* the database set up, once it exists */
};

/* The first line of PostgreSQL's message for r (or of the connection's). */
static void pg_message(PGconn *c, const PGresult *r, char *out, size_t size)
{
    const char *m = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    if (!m || !*m)
        m = r && *PQresultErrorMessage(r) ? PQresultErrorMessage(r) : PQerrorMessage(c);
    snprintf(out, size, "%s", m);
    out[strcspn(out, "\n")] = '\0';
}

/* One statement with text parameters: its result, or NULL after naming the step and
 * PostgreSQL's error. */
static PGresult *run(PGconn *c, const char *step, const char *sql, int n, const char *const *params)
{
    PGresult *r = PQexecParams(c, sql, n, NULL, params, NULL, NULL, 0);
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
        return r;
    char m[1024];
    pg_message(c, r, m, sizeof m);
    pi_error("setup-roles: %s: %s", step, m);
    PQclear(r);
    return NULL;
}

/* Statements without parameters (names quoted into them) whose results say nothing more:
 * several, separated by ';', run in one implicit transaction.  0, or -1 logged. */
static int run_done(PGconn *c, const char *step, const char *sql)
{
    PGresult *r = PQexec(c, sql);
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
        PQclear(r);
        return 0;
    }
    char m[1024];
    pg_message(c, r, m, sizeof m);
    pi_error("setup-roles: %s: %s", step, m);
    PQclear(r);
    return -1;
}

/* The first value of a one-parameter query into out (when out is given): 1 when it returned a
 * row, 0 when none, -1 logged. */
static int lookup(PGconn *c, const char *step, const char *sql, const char *param, char *out, size_t size)
{
    const char *p[1] = { param };
    PGresult *r = run(c, step, sql, 1, p);
    if (!r)
        return -1;
    int found = PQntuples(r) > 0;
    if (found && out)
        snprintf(out, size, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    return found;
}

/* name quoted as an identifier into out (QUOTED_MAX bytes): 0, or -1 logged */
static int quote(PGconn *c, const char *name, char *out)
{
    char *q = PQescapeIdentifier(c, name, strlen(name));
    if (!q) {
        pi_error("setup-roles: the name \"%s\": %s", name, PQerrorMessage(c));
        return -1;
    }
    snprintf(out, QUOTED_MAX, "%s", q);
    PQfreemem(q);
    return 0;
}

/* A session on database dbname of the server conninfo names, with its credentials: libpq
 * expands the conninfo given as the first dbname, and the second dbname replaces the
 * database it names (the last value of a repeated keyword wins). */
static PGconn *connect_to(const char *conninfo, const char *dbname, char *err, size_t errsize)
{
    const char *const keys[] = { "dbname", "dbname", "fallback_application_name", NULL };
    const char *const values[] = { conninfo, dbname, "profile_ingest", NULL };
    PGconn *c = PQconnectdbParams(keys, values, 1);
    if (PQstatus(c) != CONNECTION_OK) {
        pg_message(c, NULL, err, errsize);
        PQfinish(c);
        return NULL;
    }
    /* the NOTICEs of CREATE ... IF NOT EXISTS in the migrations say nothing to the admin */
    PQclear(PQexec(c, "SET client_min_messages = warning"));
    return c;
}

/* a: the maintenance database of the server, and a role that may create roles and databases */
static int step_connect(struct setup *s)
{
    static const char *const step = "the connected role";
    char err[1024], err2[1024];
    s->server = connect_to(s->conninfo, "postgres", err, sizeof err);
    if (!s->server)
        s->server = connect_to(s->conninfo, "template1", err2, sizeof err2);
    if (!s->server) {
        pi_error("setup-roles: connect to the server (maintenance database postgres, then template1): %s", err);
        return -1;
    }
    PGresult *r = run(s->server, step, "SELECT current_user, rolsuper, rolcreaterole AND rolcreatedb "
                      "FROM pg_roles WHERE rolname = current_user", 0, NULL);
    if (!r)
        return -1;
    int ok = PQntuples(r) == 1;
    char who[PG_NAME_MAX + 1] = "?";
    if (ok) {
        snprintf(who, sizeof who, "%s", PQgetvalue(r, 0, 0));
        s->superuser = PQgetvalue(r, 0, 1)[0] == 't';
        ok = s->superuser || PQgetvalue(r, 0, 2)[0] == 't';
    }
    PQclear(r);
    if (!ok) {
        pi_error("setup-roles: %s: --setup-roles needs a superuser or a role with CREATEROLE and CREATEDB, "
                 "and role %s is not one: run it as such a role (sudo -u postgres profile_ingest --setup-roles, "
                 "for peer authentication, or --db with user=postgres)", step, who);
        return -1;
    }
    return 0;
}

/* 1 when role name exists (*can_login set when given), 0 when not, -1 logged */
static int role_exists(struct setup *s, const char *step, const char *name, int *can_login)
{
    char login[8] = "";
    int found = lookup(s->server, step, "SELECT rolcanlogin FROM pg_roles WHERE rolname = $1", name, login, sizeof login);
    if (can_login)
        *can_login = login[0] == 't';
    return found;
}

/* b: the owner: the ingest's login role, which owns the database and the schema */
static int step_owner(struct setup *s)
{
    static const char *const step = "the owner role";
    int can_login = 0, found = role_exists(s, step, s->owner, &can_login);
    if (found < 0)
        return -1;
    if (found) {
        printf("role %s (the ingest's, owner of the schema): exists\n", s->owner);
        if (!can_login)
            pi_warn("setup-roles: role %s may not log in, and the ingest connects as it: ALTER ROLE ... LOGIN", s->owner);
        return 0;
    }
    char q[QUOTED_MAX], sql[256];
    if (quote(s->server, s->owner, q) < 0)
        return -1;
    snprintf(sql, sizeof sql, "CREATE ROLE %s LOGIN NOSUPERUSER NOCREATEROLE NOCREATEDB", q);
    if (run_done(s->server, step, sql) < 0)
        return -1;
    printf("role %s (the ingest's, owner of the schema): created\n", s->owner);
    return 0;
}

/* b, for a role that is no superuser: it may create a database OWNER owner and SET ROLE to
 * the owner only as a member of it (since PostgreSQL 16 with the SET option, which a GRANT
 * gives by default) */
static int step_member_of_owner(struct setup *s)
{
    static const char *const step = "membership in the owner role";
    if (s->superuser)
        return 0;
    char is[8] = "";
    const char *sql = PQserverVersion(s->server) >= 160000 ? "SELECT pg_has_role($1::name, 'SET')" : "SELECT pg_has_role($1::name, 'MEMBER')";
    if (lookup(s->server, step, sql, s->owner, is, sizeof is) < 0)
        return -1;
    if (is[0] == 't') {
        printf("role %s in %s (to act as the owner): already a member\n", PQuser(s->server), s->owner);
        return 0;
    }
    char q[QUOTED_MAX], grant[256];
    if (quote(s->server, s->owner, q) < 0)
        return -1;
    snprintf(grant, sizeof grant, "GRANT %s TO CURRENT_USER", q);
    if (run_done(s->server, step, grant) < 0)
        return -1;
    printf("role %s in %s (to act as the owner): granted\n", PQuser(s->server), s->owner);
    return 0;
}

/* c: jobscreen_report, as migrate/after.sql creates it when the migrating role may */
static int step_report_role(struct setup *s)
{
    static const char *const step = "role " REPORT_ROLE;
    int found = role_exists(s, step, REPORT_ROLE, NULL);
    if (found < 0)
        return -1;
    if (!found) {
        /* one implicit transaction: the role is not left without its comment */
        if (run_done(s->server, step, "CREATE ROLE " REPORT_ROLE " NOLOGIN; "
                     "COMMENT ON ROLE " REPORT_ROLE " IS '" REPORT_ROLE_COMMENT "'") < 0)
            return -1;
    }
    printf("role " REPORT_ROLE " (reads schema js): %s\n", found ? "exists" : "created");
    return 0;
}

/* d: the web CGI's login role, a member of jobscreen_report */
static int step_web_role(struct setup *s)
{
    static const char *const step = "the web role";
    char q[QUOTED_MAX], sql[256];
    int can_login = 0, found = role_exists(s, step, s->web, &can_login);
    if (found < 0)
        return -1;
    if (found && !can_login)
        pi_warn("setup-roles: role %s may not log in, and the web CGI connects as it: ALTER ROLE ... LOGIN", s->web);
    if (!found) {
        if (quote(s->server, s->web, q) < 0)
            return -1;
        snprintf(sql, sizeof sql, "CREATE ROLE %s LOGIN", q);
        if (run_done(s->server, step, sql) < 0)
            return -1;
    }
    printf("role %s (the web CGI's): %s\n", s->web, found ? "exists" : "created");

    /* pg_auth_members, not pg_has_role: a superuser "has" every role without being a member,
     * and the grant itself is what the web role needs */
    found = lookup(s->server, step, "SELECT 1 FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid "
                   "JOIN pg_roles u ON u.oid = m.member WHERE g.rolname = '" REPORT_ROLE "' AND u.rolname = $1",
                   s->web, NULL, 0);
    if (found < 0)
        return -1;
    if (!found) {
        if (quote(s->server, s->web, q) < 0)
            return -1;
        snprintf(sql, sizeof sql, "GRANT " REPORT_ROLE " TO %s", q);
        if (run_done(s->server, step, sql) < 0)
            return -1;
    }
    printf("role %s in " REPORT_ROLE ": %s\n", s->web, found ? "already a member" : "granted");
    return 0;
}

/* e, a database that existed: its schemas js and js_data, where present, must be the owner's
 * (the migrations as the owner could neither change nor use a schema of another role's), and
 * the owner must be allowed to create them when the database is another role's */
static int check_existing_database(struct setup *s, const char *db_owner)
{
    static const char *const step = "the database";
    char err[1024];
    s->target = connect_to(s->conninfo, s->dbname, err, sizeof err);
    if (!s->target) {
        pi_error("setup-roles: %s: connect to database %s: %s", step, s->dbname, err);
        return -1;
    }
    const char *p[2] = { s->owner, s->dbname };
    PGresult *r = run(s->target, step, "SELECT nspname, pg_get_userbyid(nspowner) FROM pg_namespace "
                      "WHERE nspname IN ('js', 'js_data') AND nspowner <> (SELECT oid FROM pg_roles WHERE rolname = $1) "
                      "ORDER BY nspname", 1, p);
    if (!r)
        return -1;
    if (PQntuples(r) > 0) {
        char owners[512] = "", other[PG_NAME_MAX + 1];
        for (int i = 0; i < PQntuples(r); i++) {
            size_t len = strlen(owners);
            snprintf(owners + len, sizeof owners - len, "%s%s of %s", i ? ", " : "", PQgetvalue(r, i, 0), PQgetvalue(r, i, 1));
        }
        snprintf(other, sizeof other, "%s", PQgetvalue(r, 0, 1));
        PQclear(r);
        pi_error("setup-roles: %s: in database %s the schema belongs to another role than %s (%s): whoever "
                 "migrated a database owns its schema. Either name that role the owner (--owner %s; the ingest "
                 "then connects as it), or have a superuser give its objects to %s in database %s (REASSIGN "
                 "OWNED BY %s TO %s; a superuser's objects cannot be given away: then restore a dump made "
                 "with pg_dump --no-owner into a new database) and run --setup-roles again",
                 step, s->dbname, s->owner, owners, other, s->owner, s->dbname, other, s->owner);
        return -1;
    }
    PQclear(r);
    if (!strcmp(db_owner, s->owner))
        return 0;

    char may[8] = "";
    r = run(s->server, step, "SELECT has_database_privilege($1::name, $2::text, 'CREATE')", 2, p);
    if (!r)
        return -1;
    snprintf(may, sizeof may, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    if (may[0] != 't') {
        char qdb[QUOTED_MAX], qowner[QUOTED_MAX], grant[512];
        if (quote(s->server, s->dbname, qdb) < 0 || quote(s->server, s->owner, qowner) < 0)
            return -1;
        snprintf(grant, sizeof grant, "GRANT CREATE ON DATABASE %s TO %s", qdb, qowner);
        if (run_done(s->server, step, grant) < 0)
            return -1;
    }
    printf("database %s: CREATE (of schemas) for %s: %s\n", s->dbname, s->owner, may[0] == 't' ? "already granted" : "granted");
    return 0;
}

/* e: the database, owned by the owner */
static int step_database(struct setup *s)
{
    static const char *const step = "the database";
    char db_owner[PG_NAME_MAX + 1] = "";
    int found = lookup(s->server, step, "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = $1",
                       s->dbname, db_owner, sizeof db_owner);
    if (found < 0)
        return -1;
    if (found) {
        if (!strcmp(db_owner, s->owner))
            printf("database %s (owner %s): exists\n", s->dbname, s->owner);
        else
            printf("database %s: exists, owned by %s rather than %s\n", s->dbname, db_owner, s->owner);
        return check_existing_database(s, db_owner);
    }
    char qdb[QUOTED_MAX], qowner[QUOTED_MAX], sql[512];
    if (quote(s->server, s->dbname, qdb) < 0 || quote(s->server, s->owner, qowner) < 0)
        return -1;
    /* a statement of its own: CREATE DATABASE cannot run in a transaction */
    snprintf(sql, sizeof sql, "CREATE DATABASE %s OWNER %s", qdb, qowner);
    if (run_done(s->server, step, sql) < 0)
        return -1;
    printf("database %s (owner %s): created\n", s->dbname, s->owner);
    return 0;
}

/* The migrations recorded in the database (0 before the first) and the schema version. */
static int schema_state(PGconn *c, const char *step, long *applied, long *version)
{
    *applied = *version = 0;
    PGresult *r = run(c, step, "SELECT to_regclass('js_data.schema_migrations') IS NOT NULL", 0, NULL);
    if (!r)
        return -1;
    int present = PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    if (!present)
        return 0;
    r = run(c, step, "SELECT count(*), coalesce(max(version), 0) FROM js_data.schema_migrations", 0, NULL);
    if (!r)
        return -1;
    *applied = atol(PQgetvalue(r, 0, 0));
    *version = atol(PQgetvalue(r, 0, 1));
    PQclear(r);
    return 0;
}

/* Whether jobscreen_report has all js_data.grant_reporting gives it: USAGE on js, SELECT
 * on every relation and EXECUTE on every function of js, the owner's default privileges in js
 * for both, and nothing granted on js_data or its tables.  $1 the owner. */
static const char REPORTING_COMPLETE_SQL[] =
    "WITH g AS (SELECT oid FROM pg_roles WHERE rolname = '" REPORT_ROLE "'), "
    "     js AS (SELECT oid FROM pg_namespace WHERE nspname = 'js'), "
    "     js_data AS (SELECT oid FROM pg_namespace WHERE nspname = 'js_data') "
    "SELECT has_schema_privilege('" REPORT_ROLE "', 'js', 'USAGE') "
    "   AND NOT EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = (SELECT oid FROM js) "
    "                   AND c.relkind IN ('r', 'v', 'm', 'f', 'p') "
    "                   AND NOT has_table_privilege('" REPORT_ROLE "', c.oid, 'SELECT')) "
    "   AND NOT EXISTS (SELECT 1 FROM pg_proc f WHERE f.pronamespace = (SELECT oid FROM js) "
    "                   AND NOT has_function_privilege('" REPORT_ROLE "', f.oid, 'EXECUTE')) "
    "   AND (SELECT count(DISTINCT d.defaclobjtype) FROM pg_default_acl d, aclexplode(d.defaclacl) a "
    "        WHERE d.defaclrole = (SELECT oid FROM pg_roles WHERE rolname = $1) "
    "          AND d.defaclnamespace = (SELECT oid FROM js) AND a.grantee = (SELECT oid FROM g) "
    "          AND (d.defaclobjtype, a.privilege_type) IN (('r', 'SELECT'), ('f', 'EXECUTE'))) = 2 "
    "   AND NOT EXISTS (SELECT 1 FROM pg_namespace n, aclexplode(n.nspacl) a "
    "                   WHERE n.oid = (SELECT oid FROM js_data) AND a.grantee = (SELECT oid FROM g)) "
    "   AND NOT EXISTS (SELECT 1 FROM pg_class c, aclexplode(c.relacl) a "
    "                   WHERE c.relnamespace = (SELECT oid FROM js_data) AND a.grantee = (SELECT oid FROM g))";

/* f: the migrations as the owner, then jobscreen_report's read access once more (a database
 * migrated before the role existed has none) */
static int step_migrate(struct setup *s)
{
    static const char *const step = "the migrations";
    char err[1024], q[QUOTED_MAX], sql[256];
    if (!s->target && !(s->target = connect_to(s->conninfo, s->dbname, err, sizeof err))) {
        pi_error("setup-roles: %s: connect to database %s: %s", step, s->dbname, err);
        return -1;
    }
    if (quote(s->target, s->owner, q) < 0)
        return -1;
    snprintf(sql, sizeof sql, "SET ROLE %s", q);
    if (run_done(s->target, step, sql) < 0)
        return -1;
    long before, after, version;
    if (schema_state(s->target, step, &before, &version) < 0)
        return -1;

    /* the migration code of --migrate, on this session (as the owner) rather than one of its own */
    struct pi_db db;
    pi_db_init(&db, s->conninfo);
    db.conn = s->target;
    s->target = NULL;
    int rc = pi_db_migrate(&db);
    s->target = db.conn; /* NULL when the server went away */
    db.conn = NULL;
    pi_db_close(&db);
    if (rc != PI_DB_OK || !s->target) {
        pi_error("setup-roles: %s as %s in database %s failed (the error above)", step, s->owner, s->dbname);
        return -1;
    }
    if (schema_state(s->target, step, &after, &version) < 0)
        return -1;
    if (after > before)
        printf("schema of database %s: %ld migrations applied, version %ld\n", s->dbname, after - before, version);
    else
        printf("schema of database %s: migrations up to date, version %ld\n", s->dbname, version);

    static const char *const grant_step = "the read access of " REPORT_ROLE;
    char complete[8] = "";
    if (lookup(s->target, grant_step, REPORTING_COMPLETE_SQL, s->owner, complete, sizeof complete) < 0)
        return -1;
    if (complete[0] != 't') {
        PGresult *r = run(s->target, grant_step, "SELECT js_data.grant_reporting('" REPORT_ROLE "')", 0, NULL);
        if (!r)
            return -1;
        PQclear(r);
    }
    printf("role " REPORT_ROLE " reads schema js of database %s: %s\n", s->dbname,
           complete[0] == 't' ? "already granted" : "granted");
    return 0;
}

/* A name PostgreSQL keeps whole: 0, or -1 logged */
static int check_name(const char *what, const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > PG_NAME_MAX) {
        pi_error("setup-roles: %s \"%s\": a PostgreSQL name has 1 to %d bytes", what, name, PG_NAME_MAX);
        return -1;
    }
    return 0;
}

int pi_setup_roles(const char *conninfo, const char *owner, const char *web_role)
{
    struct setup s = { .conninfo = conninfo, .owner = owner, .web = web_role };
    char *err = NULL;
    PQconninfoOption *opts = PQconninfoParse(conninfo, &err);
    if (!opts) {
        if (err)
            err[strcspn(err, "\n")] = '\0';
        pi_error("setup-roles: the connection string: %s", err ? err : "out of memory");
        PQfreemem(err);
        return 1;
    }
    for (PQconninfoOption *o = opts; o->keyword; o++)
        if (!strcmp(o->keyword, "dbname") && o->val && *o->val)
            s.dbname = strdup(o->val);
    PQconninfoFree(opts);
    if (!s.dbname)
        s.dbname = strdup(PI_SETUP_DBNAME_DEFAULT);

    int rc = check_name("owner role", owner) < 0 || check_name("web role", web_role) < 0 ||
             check_name("database", s.dbname) < 0 ||
             step_connect(&s) < 0 || step_owner(&s) < 0 || step_member_of_owner(&s) < 0 ||
             step_report_role(&s) < 0 || step_web_role(&s) < 0 || step_database(&s) < 0 ||
             step_migrate(&s) < 0;
    fflush(stdout);
    if (s.target)
        PQfinish(s.target);
    if (s.server)
        PQfinish(s.server);
    free(s.dbname);
    return rc ? 1 : 0;
}

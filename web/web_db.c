/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The database: one libpq connection per request (plain CGI) or per process (FastCGI),
 * read-only, parameterised queries only (PQexecParams with the SQL text of queries.sql, or
 * the same text prepared once per kept connection), rows turned into typed JSON. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "jsweb.h"
#include "queries.h"

const char *jsw_query_text(const char *name)
{
    for (const struct jsw_query *q = jsw_queries; q->name; q++)
        if (!strcmp(q->name, name))
            return q->text;
    return NULL;
}

/* format: 0 text results, 1 binary (the series: raw bytea, not hex, is half the bytes and
 * neither side converts them) */
static PGresult *run(PGconn *c, const char *sql, int n, const char *const *p, int format)
{
    return PQexecParams(c, sql, n, NULL, p, NULL, NULL, format);
}

/* A FastCGI process keeps its connection: its named queries are prepared once on it (the
 * flags below belong to prepared_conn; a new or reset connection starts with none). */
static bool use_prepared;
static PGconn *prepared_conn;
#define MAX_PREPARED 256
static bool prepared[MAX_PREPARED];
static int session_timeout_ms;
static struct jsw_db_stats stats;

void jsw_db_use_prepared(bool on) { use_prepared = on; }
const struct jsw_db_stats *jsw_db_stats(void) { return &stats; }

static void forget_prepared(PGconn *c)
{
    memset(prepared, 0, sizeof prepared);
    prepared_conn = c;
}

/* Read-only by default, bounded in time, named in pg_stat_activity. The prepared statements
 * plan as PostgreSQL's default does (auto): a generic plan once five custom ones cost no less,
 * which the lookups by key reach (planning was a third of a step page's database time), while
 * the lists' "$n IS NULL OR ..." filters keep their custom plans, their generic ones costing
 * more; the job list without filters runs on its generic plan all the same (jsw_db_generic_next:
 * as fast, and 1.8 ms of planning saved a request). */
static int session_setup(PGconn *c, int timeout_ms, char *err, size_t errlen)
{
    char timeout[32];
    snprintf(timeout, sizeof timeout, "%d", timeout_ms);
    const char *p[] = { timeout };
    PGresult *r = run(c,
                      "SELECT set_config('statement_timeout', $1, false), "
                      "set_config('default_transaction_read_only', 'on', false), "
                      "set_config('application_name', 'jobscreen.cgi', false), "
                      /* room to hash-aggregate a long step's slices instead of sorting them */
                      "set_config('work_mem', '64MB', false), "
                      /* no JIT: a lookup whose estimate crosses jit_above_cost on a large
                       * database (a view's branch costed but never run) spent 100 ms compiling
                       * to save nothing */
                      "set_config('jit', 'off', false)",
                      1, p, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        snprintf(err, errlen, "database setup failed: %s", PQresultErrorMessage(r));
        err[strcspn(err, "\n")] = '\0';
        PQclear(r);
        return -1;
    }
    PQclear(r);
    if (use_prepared && PQserverVersion(c) >= 120000) {
        r = PQexec(c, "SET plan_cache_mode = auto");
        if (PQresultStatus(r) != PGRES_COMMAND_OK) {
            snprintf(err, errlen, "database setup failed: %s", PQresultErrorMessage(r));
            err[strcspn(err, "\n")] = '\0';
            PQclear(r);
            return -1;
        }
        PQclear(r);
    }
    forget_prepared(c);
    return 0;
}

jsw_db *jsw_db_connect(const struct jsw_config *cfg, char *err, size_t errlen)
{
    PGconn *c = PQconnectdb(cfg->conninfo);
    if (PQstatus(c) != CONNECTION_OK) {
        snprintf(err, errlen, "database connection failed: %s", PQerrorMessage(c));
        err[strcspn(err, "\n")] = '\0';
        PQfinish(c);
        return NULL;
    }
    if (session_setup(c, cfg->statement_timeout_ms, err, errlen)) {
        PQfinish(c);
        return NULL;
    }
    session_timeout_ms = cfg->statement_timeout_ms;
    stats.connects++;
    return (jsw_db *)c;
}

void jsw_db_close(jsw_db *db)
{
    if (!db)
        return;
    if ((PGconn *)db == prepared_conn)
        forget_prepared(NULL);
    PQfinish((PGconn *)db);
}

bool jsw_db_idle(jsw_db *db)
{
    PGconn *c = (PGconn *)db;
    if (!c || PQstatus(c) != CONNECTION_OK)
        return false;
    switch (PQtransactionStatus(c)) {
    case PQTRANS_IDLE:
        return true;
    case PQTRANS_INTRANS:
    case PQTRANS_INERROR: {
        PGresult *r = PQexec(c, "ROLLBACK");
        bool ok = PQresultStatus(r) == PGRES_COMMAND_OK && PQtransactionStatus(c) == PQTRANS_IDLE;
        PQclear(r);
        return ok;
    }
    default:
        return false;
    }
}

static int query_index(const char *name)
{
    for (int i = 0; jsw_queries[i].name; i++)
        if (!strcmp(jsw_queries[i].name, name))
            return i;
    return -1;
}

/* The next query on its generic plan (jsw_db_generic_next) */
static bool generic_next;
void jsw_db_generic_next(void) { generic_next = true; }

/* The prepared statement sname run on its generic plan: plan_cache_mode forced for it alone,
 * set, run and set back in one round trip (libpq's pipeline mode) and one implicit transaction
 * (a failed run takes the setting back with it). */
static PGresult *exec_generic(PGconn *c, const char *sname, int n, const char *const *p, int format)
{
    if (PQenterPipelineMode(c) != 1)
        return PQexecPrepared(c, sname, n, p, NULL, NULL, format);
    PGresult *out = NULL;
    if (PQsendQueryParams(c, "SET plan_cache_mode = force_generic_plan", 0, NULL, NULL, NULL, NULL, 0) &&
        PQsendQueryPrepared(c, sname, n, p, NULL, NULL, format) &&
        PQsendQueryParams(c, "SET plan_cache_mode = auto", 0, NULL, NULL, NULL, NULL, 0) && PQpipelineSync(c)) {
        /* each command's result and a NULL after it, then the sync: the run's is the second */
        for (int ends = 0, idle = 0; idle < 2;) {
            PGresult *r = PQgetResult(c);
            if (!r) {
                ends++;
                idle += ends > 3; /* a broken connection: nothing more comes */
                continue;
            }
            idle = 0;
            if (PQresultStatus(r) == PGRES_PIPELINE_SYNC) {
                PQclear(r);
                break;
            }
            if (ends == 1 && !out)
                out = r;
            else
                PQclear(r);
        }
    }
    PQexitPipelineMode(c);
    return out ? out : PQmakeEmptyPGresult(c, PGRES_FATAL_ERROR);
}

/* Run query qi: a prepared statement on a kept connection (generic: on its generic plan),
 * else PQexecParams. */
static PGresult *exec_query(PGconn *c, int qi, int n, const char *const *p, int format, bool generic)
{
    const struct jsw_query *q = &jsw_queries[qi];
    if (!use_prepared || qi >= MAX_PREPARED)
        return run(c, q->text, n, p, format);
    if (c != prepared_conn)
        forget_prepared(c);
    char sname[96];
    snprintf(sname, sizeof sname, "jsw_%s", q->name);
    if (!prepared[qi]) {
        PGresult *r = PQprepare(c, sname, q->text, 0, NULL);
        if (PQresultStatus(r) != PGRES_COMMAND_OK)
            return r;
        PQclear(r);
        prepared[qi] = true;
        stats.prepares++;
    }
    stats.executes++;
    if (generic)
        return exec_generic(c, sname, n, p, format);
    return PQexecPrepared(c, sname, n, p, NULL, NULL, format);
}

static json_t *cell(const PGresult *r, int row, int col)
{
    if (PQgetisnull(r, row, col))
        return json_null();
    const char *v = PQgetvalue(r, row, col);
    switch (PQftype(r, col)) {
    case OID_BOOL:
        return json_boolean(v[0] == 't');
    case OID_INT2: case OID_INT4: case OID_INT8: case OID_OID:
        return json_integer(strtoll(v, NULL, 10));
    case OID_FLOAT4: case OID_FLOAT8: case OID_NUMERIC: {
        double d = strtod(v, NULL);
        /* NaN and infinities have no JSON form */
        return d == d && d - d == 0 ? json_real(d) : json_null();
    }
    case OID_JSON: case OID_JSONB: {
        json_error_t e;
        json_t *j = json_loads(v, JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
        return j ? j : json_null();
    }
    default: {
        /* the database is UTF-8; a string Jansson refuses becomes null, never raw bytes */
        json_t *s = json_string(v);
        return s ? s : json_null();
    }
    }
}

static PGresult *result(jsw_db *db, const char *query_name, int nparams, const char *const *params,
                        int format, char *err, size_t errlen)
{
    const char *sql = jsw_query_text(query_name);
    if (!sql) {
        snprintf(err, errlen, "internal error: no query '%s'", query_name);
        return NULL;
    }
    PGconn *c = (PGconn *)db;
    bool generic = generic_next;
    generic_next = false;
    PGresult *r = exec_query(c, query_index(query_name), nparams, params, format, generic);
    if (PQresultStatus(r) != PGRES_TUPLES_OK && use_prepared && PQstatus(c) == CONNECTION_BAD) {
        /* a kept connection that broke between requests (server restart, idle timeout,
         * pg_terminate_backend): reconnect in place and run the query once more (read-only) */
        fprintf(stderr, "jobscreen.cgi: query %s: %s", query_name, PQresultErrorMessage(r));
        PQclear(r);
        PQreset(c);
        char e[256];
        if (PQstatus(c) != CONNECTION_OK || session_setup(c, session_timeout_ms, e, sizeof e)) {
            fprintf(stderr, "jobscreen.cgi: reconnecting failed: %s\n",
                    PQstatus(c) != CONNECTION_OK ? PQerrorMessage(c) : e);
            snprintf(err, errlen, "database query '%s' failed", query_name);
            return NULL;
        }
        stats.reconnects++;
        fprintf(stderr, "jobscreen.cgi: reconnected to the database\n");
        r = exec_query(c, query_index(query_name), nparams, params, format, generic);
    }
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        fprintf(stderr, "jobscreen.cgi: query %s: %s", query_name, PQresultErrorMessage(r));
        snprintf(err, errlen, "database query '%s' failed", query_name);
        PQclear(r);
        return NULL;
    }
    return r;
}

PGresult *jsw_db_result(jsw_db *db, const char *query_name, int nparams, const char *const *params,
                        char *err, size_t errlen)
{
    return result(db, query_name, nparams, params, 0, err, errlen);
}

PGresult *jsw_db_result_binary(jsw_db *db, const char *query_name, int nparams,
                               const char *const *params, char *err, size_t errlen)
{
    return result(db, query_name, nparams, params, 1, err, errlen);
}

json_t *jsw_db_rows(jsw_db *db, const char *query_name, int nparams, const char *const *params,
                    char *err, size_t errlen)
{
    PGresult *r = jsw_db_result(db, query_name, nparams, params, err, errlen);
    if (!r)
        return NULL;
    int rows = PQntuples(r), cols = PQnfields(r);
    json_t *out = json_array();
    for (int i = 0; i < rows; i++) {
        json_t *o = json_object();
        for (int c = 0; c < cols; c++)
            json_object_set_new(o, PQfname(r, c), cell(r, i, c));
        json_array_append_new(out, o);
    }
    PQclear(r);
    return out;
}

json_t *jsw_db_row(jsw_db *db, const char *query_name, int nparams, const char *const *params,
                   char *err, size_t errlen)
{
    json_t *rows = jsw_db_rows(db, query_name, nparams, params, err, errlen);
    if (!rows)
        return NULL;
    json_t *first = json_array_size(rows) ? json_incref(json_array_get(rows, 0)) : json_null();
    json_decref(rows);
    return first;
}

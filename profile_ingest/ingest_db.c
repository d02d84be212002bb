/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ingest's database session: connection and migrations, and the statements outside a step
 * record's transaction (dbstep.c): lookups of what was ingested, a job's own record, quarantine
 * rows, durability, retention and --status.
 */
#include "config.h"

#include "ingest_db.h"
#include "dbutil.h"
#include "log.h"
#include "migrations.h"
#include "record_format.h"
#include "series.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- connection and migrations ---------------------------------------------------- */
void pi_db_init(struct pi_db *db, const char *conninfo)
{
    memset(db, 0, sizeof *db);
    db->conninfo = strdup(conninfo);
    char host[64] = "?";
    gethostname(host, sizeof host - 1);
    snprintf(db->who, sizeof db->who, "%s:%ld", host, (long)getpid());
}

void pi_db_close(struct pi_db *db)
{
    if (db->conn)
        PQfinish(db->conn);
    free(db->conninfo);
    memset(db, 0, sizeof *db);
}

int pi_db_ensure(struct pi_db *db, int migrate)
{
    if (db->conn && PQstatus(db->conn) == CONNECTION_OK)
        return PI_DB_OK;
    if (db->conn)
        PQfinish(db->conn);
    db->staged = 0;
    db->cluster_id[0] = '\0';
    db->nparts = 0;
    db->njobs_sent = 0;
    db->nprepared = 0;
    db->conn = PQconnectdb(db->conninfo);
    if (PQstatus(db->conn) != CONNECTION_OK) {
        char m[1024];
        snprintf(m, sizeof m, "%s", PQerrorMessage(db->conn));
        m[strcspn(m, "\n")] = '\0';
        pi_warn("database unavailable: %s", m);
        PQfinish(db->conn);
        db->conn = NULL;
        return PI_DB_RETRY;
    }
    PQclear(PQexec(db->conn, "SET application_name = 'profile_ingest'"));
    PQclear(PQexec(db->conn, "SET client_min_messages = warning"));
    /* no JIT: the keepers' queries over many jobs cross jit_above_cost, and compiling them cost
     * more than running them (issue 37's bench); the ingest's statements are short */
    PQclear(PQexec(db->conn, "SET jit = off"));
    /* Files leave the spool once COMMIT returns: it must mean the transaction is durable, even
     * where the server runs with synchronous_commit = off (a crash would lose the last
     * commits, and with them the steps whose files were already removed). */
    PQclear(PQexec(db->conn, "SET synchronous_commit = on"));
    if (migrate && !db->migrated) {
        int rc = pi_db_migrate(db);
        if (rc != PI_DB_OK)
            return rc;
    }
    return PI_DB_OK;
}

static int latest_known(void)
{
    int v = 0;
    for (const struct pi_migration *m = pi_migrations; m->version >= 0; m++)
        if (m->version > v)
            v = m->version;
    return v;
}

/* The squashed base (033): the lowest migration after the bootstrap. A database below it was
 * made by migrations no longer carried; it upgrades with release 0.1.0 first. */
static int base_version(void)
{
    int v = 0;
    for (const struct pi_migration *m = pi_migrations; m->version >= 0; m++)
        if (m->version > 0 && (v == 0 || m->version < v))
            v = m->version;
    return v;
}

/* FNV-1a over the definitions' names and text, each ended by its NUL: a migrate that finds
 * the digest stored in js_data.schema_definitions and no migration pending has nothing to do. */
static uint64_t fnv1a(uint64_t h, const char *s)
{
    do
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    while (*s++);
    return h;
}

static void definitions_digest(char *out, size_t size)
{
    uint64_t h = 14695981039346656037ULL;
    for (const struct pi_migration *d = pi_definitions; d->version >= 0; d++)
        h = fnv1a(fnv1a(h, d->name), d->sql);
    snprintf(out, size, "%016" PRIx64, h);
}

/* The versions recorded (applied[v] for v <= latest), checked against those this binary
 * knows, and the digest of the definitions last created. */
static int migrate_read_state(struct pi_db *db, char *applied, int latest, char *digest, size_t size)
{
    PGresult *r = PQexec(db->conn, "SELECT version FROM js_data.schema_migrations");
    int rc = PQresultStatus(r) == PGRES_TUPLES_OK ? PI_DB_OK : dbu_check(db, r, PGRES_TUPLES_OK, "read the applied migrations");
    if (rc != PI_DB_OK)
        return rc;
    int current = 0;
    for (int i = 0; i < PQntuples(r); i++) {
        int v = atoi(PQgetvalue(r, i, 0));
        current = v > current ? v : current;
        if (v >= 0 && v <= latest)
            applied[v] = 1;
    }
    PQclear(r);
    if (current > latest) {
        pi_error("the database's schema version %d is newer than this profile_ingest knows (%d): upgrade profile_ingest",
                 current, latest);
        return PI_DB_FAIL;
    }
    if (current > 0 && current < base_version()) {
        pi_error("the database's schema version %d predates %d (release 0.1.0), from which this profile_ingest upgrades: "
                 "migrate it with release 0.1.0's profile_ingest first", current, base_version());
        return PI_DB_FAIL;
    }
    r = PQexec(db->conn, "SELECT digest FROM js_data.schema_definitions");
    if ((rc = PQresultStatus(r) == PGRES_TUPLES_OK ? PI_DB_OK : dbu_check(db, r, PGRES_TUPLES_OK, "read the definitions' digest")) != PI_DB_OK)
        return rc;
    snprintf(digest, size, "%s", PQntuples(r) ? PQgetvalue(r, 0, 0) : "");
    PQclear(r);
    return PI_DB_OK;
}

/* In one transaction: drop the definitions (migrate/before.sql), apply the pending migrations
 * and record them, create the definitions again (migrate/after.sql last), keep their digest.
 * Function bodies are not checked at creation (as pg_dump restores), so a function may name a
 * view created after it; the tests run every one. */
static int migrate_apply(struct pi_db *db, const char *applied, const char *digest)
{
    int rc = dbu_exec(db, "BEGIN", "begin migration");
    if (rc == PI_DB_OK)
        rc = dbu_exec(db, "SET LOCAL check_function_bodies = off", "migration settings");
    if (rc == PI_DB_OK) /* migrate/before.sql, the first definition: the others are dropped */
        rc = dbu_exec(db, pi_definitions[0].sql, pi_definitions[0].name);
    for (const struct pi_migration *m = pi_migrations; rc == PI_DB_OK && m->version >= 0; m++) {
        if (m->version == 0 || applied[m->version])
            continue;
        char v[16];
        snprintf(v, sizeof v, "%d", m->version);
        const char *params[2] = { v, m->name };
        if ((rc = dbu_exec(db, m->sql, m->name)) == PI_DB_OK)
            rc = dbu_check(db, PQexecParams(db->conn, "INSERT INTO js_data.schema_migrations (version, name) VALUES ($1, $2)",
                                        2, NULL, params, NULL, NULL, 0), PGRES_COMMAND_OK, "record migration");
        if (rc == PI_DB_OK)
            pi_info("schema migration %s applied", m->name);
    }
    for (const struct pi_migration *d = pi_definitions + 1; rc == PI_DB_OK && d->version >= 0; d++)
        rc = dbu_exec(db, d->sql, d->name);
    const char *params[1] = { digest };
    if (rc == PI_DB_OK)
        rc = dbu_check(db, PQexecParams(db->conn, "INSERT INTO js_data.schema_definitions (digest) VALUES ($1)"
                                    " ON CONFLICT (only_row) DO UPDATE SET digest = excluded.digest, created_at = now()",
                                    1, NULL, params, NULL, NULL, 0), PGRES_COMMAND_OK, "record the definitions' digest");
    if (rc == PI_DB_OK)
        rc = dbu_exec(db, "COMMIT", "commit migration");
    if (rc != PI_DB_OK)
        dbu_rollback(db);
    else
        pi_info("schema definitions created (digest %s)", digest);
    return rc;
}

int pi_db_migrate(struct pi_db *db)
{
    int rc;
    PGresult *r = PQexec(db->conn, "SELECT pg_advisory_lock(hashtext('jobscreen migrate'))");
    if ((rc = dbu_check(db, r, PGRES_TUPLES_OK, "lock for migrations")) != PI_DB_OK)
        return rc;
    rc = dbu_exec(db, pi_migrations[0].sql, "bootstrap");
    int latest = latest_known();
    char *applied = calloc((size_t)latest + 1, 1);
    char digest[32], stored[64] = "";
    definitions_digest(digest, sizeof digest);
    if (rc == PI_DB_OK)
        rc = applied ? migrate_read_state(db, applied, latest, stored, sizeof stored) : PI_DB_FAIL;
    /* Every migration not yet recorded is applied, not only those above the highest: a
     * migration numbered into a gap (a part's range filled later) still reaches databases
     * that already have higher ones. */
    int pending = 0;
    for (const struct pi_migration *m = pi_migrations; rc == PI_DB_OK && m->version >= 0; m++)
        pending += m->version > 0 && !applied[m->version];
    if (rc == PI_DB_OK && (pending || strcmp(stored, digest) != 0))
        rc = migrate_apply(db, applied, digest);
    free(applied);
    if (db->conn)
        PQclear(PQexec(db->conn, "SELECT pg_advisory_unlock(hashtext('jobscreen migrate'))"));
    if (rc == PI_DB_OK)
        db->migrated = 1;
    return rc;
}

/* ---- queries ------------------------------------------------------------------------ */
int pi_db_quarantined(struct pi_db *db, const char *cluster, long long job, const char *step, const char *node, char ***names)
{
    char j[32];
    snprintf(j, sizeof j, "%lld", job);
    const char *p[4] = { cluster, j, step, node };
    PGresult *r = dbu_q(db, "SELECT file, reason FROM js_data.quarantine s JOIN js_data.clusters c USING (cluster_id) "
                        "WHERE c.name = $1 AND s.job_id = $2 AND s.step_id = $3 AND s.node = $4", 4, p);
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        return dbu_check(db, r, PGRES_TUPLES_OK, "look up quarantined files");
    int n = PQntuples(r);
    *names = calloc(2 * (size_t)n + 1, sizeof **names);
    for (int i = 0; i < n; i++) {
        (*names)[2 * i] = strdup(PQgetvalue(r, i, 0));
        (*names)[2 * i + 1] = strdup(PQgetvalue(r, i, 1));
    }
    PQclear(r);
    return PI_DB_OK;
}

int pi_db_step_node_known(struct pi_db *db, const char *cluster, long long job, const char *step, const char *node, int *known)
{
    char j[32];
    snprintf(j, sizeof j, "%lld", job);
    const char *p[4] = { cluster, j, step, node };
    PGresult *r = dbu_q(db, "SELECT 1 FROM js_data.step_nodes s JOIN js_data.clusters c USING (cluster_id) "
                        "WHERE c.name = $1 AND s.job_id = $2 AND s.step_id = $3 AND s.node = $4", 4, p);
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        return dbu_check(db, r, PGRES_TUPLES_OK, "look up a step-node");
    *known = PQntuples(r) > 0;
    PQclear(r);
    return PI_DB_OK;
}

int pi_db_ingest_job(struct pi_db *db, const char *cluster, const json_t *job, int slice_seconds)
{
    char cid[16];
    int rc = dbu_cluster_id(db, cluster, slice_seconds, cid, sizeof cid);
    if (rc != PI_DB_OK)
        return rc;
    /* this very record committed by this session with a step record's: nothing new */
    long long id = json_integer_value(json_object_get(job, "job_id"));
    long long written = json_integer_value(json_object_get(job, "written_ns"));
    if (dbu_job_sent(db, cid, id, written))
        return PI_DB_OK;
    struct dbu_params p = { .n = 0 };
    struct sbuf sql = { 0 };
    dbu_params_add(&p, cid);
    sb_printf(&sql, "SELECT js_data.ingest_job_record($1, ");
    if (dbu_params_record(&p, job, js_job_record_fields, "js_data.job_record_values", &sql) == 0) {
        sb_printf(&sql, ")");
        rc = dbu_check(db, dbu_q(db, sql.p, p.n, p.v), PGRES_TUPLES_OK, "job record");
        if (rc == PI_DB_OK)
            dbu_job_note(db, cid, id, written);
    } else {
        rc = PI_DB_FAIL;
    }
    dbu_params_free(&p);
    free(sql.p);
    return rc;
}

int pi_db_quarantine(struct pi_db *db, const char *cluster, long long job, const char *step, const char *node,
                     const char *file, const char *moved_to, const char *reason)
{
    char cid[16], j[32];
    int rc = dbu_cluster_id(db, cluster, 4, cid, sizeof cid);
    if (rc != PI_DB_OK)
        return rc;
    snprintf(j, sizeof j, "%lld", job);
    const char *p[7] = { cid, j, step, node, file, moved_to, reason };
    return dbu_check(db, dbu_q(db, "SELECT js_data.add_quarantine($1, $2, $3, $4, $5, $6, $7)", 7, p), PGRES_TUPLES_OK, "quarantine");
}

int pi_db_durable(struct pi_db *db)
{
    /* A transaction that writes, committed with synchronous_commit = on, returns once the log
     * is flushed up to its commit record, so every earlier (asynchronous) commit is durable.
     * It must write: a commit that wrote no log record is not flushed (an xid alone is not
     * enough). */
    const char *p[1] = { db->who };
    return dbu_check(db, dbu_q(db, "INSERT INTO js_data.ingest_sessions (backend_pid, who, at) VALUES (pg_backend_pid(), $1, now()) "
                           "ON CONFLICT (backend_pid) DO UPDATE SET who = excluded.who, at = excluded.at", 1, p),
                 PGRES_COMMAND_OK, "flush the commits");
}

int pi_db_retention(struct pi_db *db, int dry_run, FILE *out)
{
    const char *p[] = { dry_run ? "t" : "f" };
    PGresult *r = PQexecParams(db->conn, "SELECT class, item, rows, action FROM js_data.apply_retention_all($1::boolean)",
                               1, NULL, p, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        return dbu_check(db, r, PGRES_TUPLES_OK, "retention");
    for (int i = 0; i < PQntuples(r); i++)
        fprintf(out, "retention: %s %s rows of %s (%s)\n", PQgetvalue(r, i, 3), PQgetvalue(r, i, 2), PQgetvalue(r, i, 1),
                PQgetvalue(r, i, 0));
    if (PQntuples(r) == 0)
        fprintf(out, "retention: nothing %s\n", dry_run ? "would be removed" : "to remove");
    PQclear(r);
    return PI_DB_OK;
}

int pi_db_status(struct pi_db *db, FILE *out)
{
    PGresult *r = PQexec(db->conn,
        "SELECT (SELECT count(*) FROM js_data.step_nodes),"
        " (SELECT count(*) FROM js_data.step_nodes WHERE ingested_at > now() - interval '1 minute'),"
        " (SELECT count(*) FROM js_data.step_nodes WHERE ingested_at > now() - interval '1 hour'),"
        " (SELECT coalesce(to_char(max(ingested_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), 'never') FROM js_data.step_nodes),"
        " (SELECT count(*) FROM js_data.quarantine),"
        " (SELECT count(*) FROM js_data.totals_pending),"
        " (SELECT max(version) FROM js_data.schema_migrations)");
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        return dbu_check(db, r, PGRES_TUPLES_OK, "status");
    fprintf(out, "ingested step records: %s\nlast minute: %s\nlast hour: %s\nlast ingest: %s\nquarantined files: %s\n"
            "step records waiting for the slice totals: %s\nschema version: %s\n",
            PQgetvalue(r, 0, 0), PQgetvalue(r, 0, 1), PQgetvalue(r, 0, 2), PQgetvalue(r, 0, 3), PQgetvalue(r, 0, 4),
            PQgetvalue(r, 0, 5), PQgetvalue(r, 0, 6));
    PQclear(r);
    return PI_DB_OK;
}

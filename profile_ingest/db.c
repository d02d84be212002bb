#include "config.h"

#include "db.h"
#include "log.h"
#include "migrations.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- a growing buffer for COPY data ---------------------------------------------- */
struct sbuf {
    char *p;
    size_t len, cap;
};

static void sb_need(struct sbuf *b, size_t more)
{
    if (b->len + more + 1 <= b->cap)
        return;
    size_t n = b->cap ? b->cap * 2 : 65536;
    while (n < b->len + more + 1)
        n *= 2;
    char *q = realloc(b->p, n);
    if (!q)
        abort();
    b->p = q;
    b->cap = n;
}

static void sb_raw(struct sbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap)
        sb_need(b, n);
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    sb_need(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* a decimal integer (the hot path of COPY: a vsnprintf per value costs more than the COPY) */
static void sb_int(struct sbuf *b, int64_t v)
{
    char tmp[24], *e = tmp + sizeof tmp, *p = e;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    sb_raw(b, p, (size_t)(e - p));
}

/* a text field in COPY text format: NULL as \N, backslash, tab, newline, CR escaped */
static void sb_text(struct sbuf *b, const char *s)
{
    if (!s) {
        sb_raw(b, "\\N", 2);
        return;
    }
    for (; *s; s++) {
        switch (*s) {
        case '\\': sb_raw(b, "\\\\", 2); break;
        case '\t': sb_raw(b, "\\t", 2); break;
        case '\n': sb_raw(b, "\\n", 2); break;
        case '\r': sb_raw(b, "\\r", 2); break;
        default: sb_raw(b, s, 1);
        }
    }
}

static void sb_ts(struct sbuf *b, int64_t ns)
{
    if (ns < 0) {
        sb_raw(b, "\\N", 2);
        return;
    }
    time_t sec = (time_t)(ns / 1000000000);
    struct tm tm;
    gmtime_r(&sec, &tm);
    char t[40];
    strftime(t, sizeof t, "%Y-%m-%d %H:%M:%S", &tm);
    sb_printf(b, "%s.%06" PRId64 "+00", t, (ns % 1000000000) / 1000);
}

/* ---- errors ------------------------------------------------------------------------ */
static int transient(PGconn *c, const PGresult *r)
{
    if (PQstatus(c) != CONNECTION_OK)
        return 1;
    const char *st = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    if (!st)
        return 1;
    return !strncmp(st, "08", 2) || !strncmp(st, "57P", 3) || !strncmp(st, "53", 2) ||
           !strcmp(st, "40001") || !strcmp(st, "40P01") || !strcmp(st, "55P03");
}

/* Check a result: PI_DB_OK, or RETRY/FAIL after logging (and clearing) it. */
static int check(struct pi_db *db, PGresult *r, ExecStatusType want, const char *what)
{
    if (r && PQresultStatus(r) == want) {
        PQclear(r);
        return PI_DB_OK;
    }
    ExecStatusType got = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (got == PGRES_COMMAND_OK || got == PGRES_TUPLES_OK || got == PGRES_COPY_IN) {
        /* no error, another kind of result: our SQL is wrong (e.g. a migration ending in a
         * SELECT), which no retry mends */
        pi_error("database: %s: the server answered %s where %s was expected", what, PQresStatus(got), PQresStatus(want));
        PQclear(r);
        return PI_DB_FAIL;
    }
    int t = transient(db->conn, r);
    const char *msg = r ? PQresultErrorMessage(r) : PQerrorMessage(db->conn);
    char m[1024];
    snprintf(m, sizeof m, "%s", msg && *msg ? msg : PQerrorMessage(db->conn));
    m[strcspn(m, "\n")] = '\0';
    if (t)
        pi_warn("database: %s: %s (will retry)", what, m);
    else
        pi_error("database: %s: %s", what, m);
    PQclear(r);
    if (PQstatus(db->conn) != CONNECTION_OK) {
        PQfinish(db->conn);
        db->conn = NULL;
        db->staged = 0;
    }
    return t ? PI_DB_RETRY : PI_DB_FAIL;
}

static int exec_cmd(struct pi_db *db, const char *sql, const char *what)
{
    return check(db, PQexec(db->conn, sql), PGRES_COMMAND_OK, what);
}

static void rollback(struct pi_db *db)
{
    if (db->conn && PQtransactionStatus(db->conn) != PQTRANS_IDLE)
        PQclear(PQexec(db->conn, "ROLLBACK"));
}

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
    db->last_job = 0;
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

int pi_db_migrate(struct pi_db *db)
{
    int rc;
    PGresult *r = PQexec(db->conn, "SELECT pg_advisory_lock(hashtext('jobscreen migrate'))");
    if ((rc = check(db, r, PGRES_TUPLES_OK, "lock for migrations")) != PI_DB_OK)
        return rc;
    rc = exec_cmd(db, pi_migrations[0].sql, "bootstrap");
    int current = 0;
    if (rc == PI_DB_OK) {
        r = PQexec(db->conn, "SELECT coalesce(max(version), 0) FROM js_data.schema_migrations");
        if (PQresultStatus(r) == PGRES_TUPLES_OK)
            current = atoi(PQgetvalue(r, 0, 0));
        rc = check(db, r, PGRES_TUPLES_OK, "read the schema version");
    }
    if (rc == PI_DB_OK && current > latest_known()) {
        pi_error("the database's schema version %d is newer than this profile_ingest knows (%d): upgrade profile_ingest",
                 current, latest_known());
        rc = PI_DB_FAIL;
    }
    /* Every migration not yet recorded is applied, not only those above the highest: a
     * migration numbered into a gap (a part's range filled later) still reaches databases
     * that already have higher ones. */
    for (const struct pi_migration *m = pi_migrations; rc == PI_DB_OK && m->version >= 0; m++) {
        if (m->version == 0)
            continue;
        char v[16];
        snprintf(v, sizeof v, "%d", m->version);
        const char *params[2] = { v, m->name };
        r = PQexecParams(db->conn, "SELECT 1 FROM js_data.schema_migrations WHERE version = $1", 1, NULL,
                         params, NULL, NULL, 0);
        int applied = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0;
        if ((rc = check(db, r, PGRES_TUPLES_OK, "read the applied migrations")) != PI_DB_OK || applied)
            continue;
        if ((rc = exec_cmd(db, "BEGIN", "begin migration")) != PI_DB_OK)
            break;
        rc = exec_cmd(db, m->sql, m->name);
        if (rc == PI_DB_OK) {
            rc = check(db, PQexecParams(db->conn, "INSERT INTO js_data.schema_migrations (version, name) VALUES ($1, $2)",
                                        2, NULL, params, NULL, NULL, 0), PGRES_COMMAND_OK, "record migration");
        }
        if (rc == PI_DB_OK)
            rc = exec_cmd(db, "COMMIT", "commit migration");
        if (rc != PI_DB_OK) {
            rollback(db);
            break;
        }
        pi_info("schema migration %s applied", m->name);
    }
    if (db->conn)
        PQclear(PQexec(db->conn, "SELECT pg_advisory_unlock(hashtext('jobscreen migrate'))"));
    if (rc == PI_DB_OK)
        db->migrated = 1;
    return rc;
}

/* ---- queries ------------------------------------------------------------------------ */
static PGresult *q(struct pi_db *db, const char *sql, int n, const char *const *params)
{
    return PQexecParams(db->conn, sql, n, NULL, params, NULL, NULL, 0);
}

int pi_db_quarantined(struct pi_db *db, const char *cluster, long long job, const char *step, const char *node, char ***names)
{
    char j[32];
    snprintf(j, sizeof j, "%lld", job);
    const char *p[4] = { cluster, j, step, node };
    PGresult *r = q(db, "SELECT file, reason FROM js_data.quarantine s JOIN js_data.clusters c USING (cluster_id) "
                        "WHERE c.name = $1 AND s.job_id = $2 AND s.step_id = $3 AND s.node = $4", 4, p);
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        return check(db, r, PGRES_TUPLES_OK, "look up quarantined files");
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
    PGresult *r = q(db, "SELECT 1 FROM js_data.step_nodes s JOIN js_data.clusters c USING (cluster_id) "
                        "WHERE c.name = $1 AND s.job_id = $2 AND s.step_id = $3 AND s.node = $4", 4, p);
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        return check(db, r, PGRES_TUPLES_OK, "look up a step-node");
    *known = PQntuples(r) > 0;
    PQclear(r);
    return PI_DB_OK;
}

static int copy_rows(struct pi_db *db, const char *sql, struct sbuf *b, const char *what)
{
    int rc = check(db, PQexec(db->conn, sql), PGRES_COPY_IN, what);
    if (rc != PI_DB_OK)
        return rc;
    size_t off = 0;
    while (off < b->len) {
        size_t n = b->len - off > (1 << 20) ? (1 << 20) : b->len - off;
        if (PQputCopyData(db->conn, b->p + off, (int)n) != 1)
            break;
        off += n;
    }
    PQputCopyEnd(db->conn, off == b->len ? NULL : "client error");
    return check(db, PQgetResult(db->conn), PGRES_COMMAND_OK, what);
}

static int get_cluster_id(struct pi_db *db, const char *cluster, int slice_seconds, char *out, size_t size)
{
    if (db->cluster_id[0] && strcmp(db->cluster_name, cluster) == 0) {
        snprintf(out, size, "%s", db->cluster_id);
        return PI_DB_OK;
    }
    char len[16];
    snprintf(len, sizeof len, "%d", slice_seconds);
    const char *p[2] = { cluster, len };
    PGresult *r = q(db, "SELECT js_data.cluster_id($1, $2)", 2, p);
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        return check(db, r, PGRES_TUPLES_OK, "cluster id");
    snprintf(out, size, "%s", PQgetvalue(r, 0, 0));
    snprintf(db->cluster_id, sizeof db->cluster_id, "%s", out);
    snprintf(db->cluster_name, sizeof db->cluster_name, "%s", cluster);
    PQclear(r);
    return PI_DB_OK;
}

static int ensure_partitions(struct pi_db *db, const struct pi_step *st)
{
    if (st->nslices == 0)
        return PI_DB_OK;
    /* partitions are never dropped while a daemon runs (retention drops old ones only) */
    const long long w = 21600; /* js_data.slice_partition_width() */
    long long lo = st->slices[0].slice, hi = st->slices[st->nslices - 1].slice;
    long long p0 = lo - (((lo % w) + w) % w), p1 = hi - (((hi % w) + w) % w);
    int known = 0;
    for (int i = 0; i < db->nparts; i++)
        known += db->parts[i] == p0 || (p1 != p0 && db->parts[i] == p1);
    if (known == (p1 == p0 ? 1 : 2) && p1 - p0 <= w)
        return PI_DB_OK;
    char a[32], b[32];
    snprintf(a, sizeof a, "%" PRId64, st->slices[0].slice);
    snprintf(b, sizeof b, "%" PRId64, st->slices[st->nslices - 1].slice);
    const char *p[2] = { a, b };
    int rc = check(db, q(db, "SELECT js_data.ensure_slice_partitions($1, $2)", 2, p), PGRES_TUPLES_OK, "create partitions");
    if (rc == PI_DB_OK && p1 - p0 <= w) {
        if (db->nparts + 2 > (int)(sizeof db->parts / sizeof db->parts[0]))
            db->nparts = 0;
        db->parts[db->nparts++] = p0;
        if (p1 != p0)
            db->parts[db->nparts++] = p1;
    }
    return rc;
}

/* one element of a text[] literal, quoted */
static void pg_array_elem(struct sbuf *b, const char *text)
{
    sb_raw(b, "\"", 1);
    for (const char *s = text; *s; s++) {
        if (*s == '"' || *s == '\\')
            sb_raw(b, "\\", 1);
        sb_raw(b, s, 1);
    }
    sb_raw(b, "\"", 1);
}

static void pg_text_array(struct sbuf *b, char *const *list)
{
    sb_raw(b, "{", 1);
    for (int i = 0; i < PI_MAX_LIST && list[i]; i++) {
        if (i)
            sb_raw(b, ",", 1);
        pg_array_elem(b, list[i]);
    }
    sb_raw(b, "}", 1);
}

/* "posix_read_calls, posix_read_bytes, ...": the metric columns, from JS_PROFILE_METRICS */
static const char *metric_columns(void)
{
    static char cols[2048];
    if (!cols[0])
        for (int k = 0; k < JS_M_COUNT; k++) {
            strncat(cols, k ? ", " : "", sizeof cols - strlen(cols) - 1);
            strncat(cols, js_profile_metrics[k].name, sizeof cols - strlen(cols) - 1);
        }
    return cols;
}

/* A tab and a value of a nullable column: \N when negative (unknown). */
static void sb_null_or_int(struct sbuf *b, int64_t v)
{
    if (v < 0)
        sb_raw(b, "\t\\N", 3);
    else {
        sb_raw(b, "\t", 1);
        sb_int(b, v);
    }
}

/* COPY the step-node's process rows into table (js_data.processes, or live_processes). */
static int copy_procs(struct pi_db *db, const struct pi_step *st, const char *cid, const char *job, const char *table)
{
    int rc = PI_DB_OK;
    struct sbuf b = { 0 };
    if (st->nprocs) {
        b.len = 0;
        for (size_t i = 0; i < st->nprocs; i++) {
            const struct pi_proc *p = &st->procs[i];
            sb_printf(&b, "%s\t%s\t", cid, job);
            sb_text(&b, st->step);
            sb_raw(&b, "\t", 1);
            sb_text(&b, st->node);
            sb_printf(&b, "\t%" PRId64 "\t%d\t%" PRId64 "\t", p->pid, p->image, p->ppid);
            if (p->task_id < 0) sb_raw(&b, "\\N\t", 3); else sb_printf(&b, "%" PRId64 "\t", p->task_id);
            if (p->mpi_rank < 0) sb_raw(&b, "\\N\t", 3); else sb_printf(&b, "%" PRId64 "\t", p->mpi_rank);
            if (p->mpi_size < 0) sb_raw(&b, "\\N\t", 3); else sb_printf(&b, "%" PRId64 "\t", p->mpi_size);
            sb_text(&b, p->origin); sb_raw(&b, "\t", 1);
            sb_text(&b, p->end); sb_raw(&b, "\t", 1);
            sb_text(&b, p->exe); sb_raw(&b, "\t", 1);
            sb_text(&b, p->args); sb_raw(&b, "\t", 1);
            sb_ts(&b, p->start_ns); sb_raw(&b, "\t", 1);
            sb_ts(&b, p->end_ns);
            sb_printf(&b, "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%s\t%" PRId64 "\t",
                      p->wall_ns, p->cpu_user_ns, p->cpu_sys_ns, p->max_rss_kib, p->threads_peak, p->threads_seen,
                      p->compute_ns, p->slices_truncated ? "t" : "f", p->files_dropped);
            sb_text(&b, p->collectives);
            if (p->exit_code < 0) sb_raw(&b, "\t\\N", 3); else sb_printf(&b, "\t%d", p->exit_code);
            sb_printf(&b, "\t%d\t", p->signal);
            sb_text(&b, p->missing);
            for (int k = 0; k < JS_M_COUNT; k++) {
                sb_raw(&b, "\t", 1);
                sb_int(&b, p->m[k]);
            }
            sb_null_or_int(&b, p->idle_ns);
            sb_null_or_int(&b, p->mpi_setup_ns);
            for (int k = 0; k < JS_KIO_COUNT; k++)
                sb_null_or_int(&b, p->kio[k]);
            sb_raw(&b, "\n", 1);
        }
        char sql[4096];
        snprintf(sql, sizeof sql, "COPY %s (cluster_id, job_id, step_id, node, pid, image, ppid, task_id, "
                 "mpi_rank, mpi_size, origin, ended_by, exe, args, start_time, end_time, wall_ns, cpu_user_ns, "
                 "cpu_sys_ns, max_rss_kib, threads_peak, threads_seen, compute_ns, slices_truncated, "
                 "files_dropped, mpi_collectives, exit_code, signal, missing, %s, idle_ns, mpi_setup_ns, kernel_rchar, "
                 "kernel_wchar, kernel_syscr, kernel_syscw, kernel_read_bytes, kernel_write_bytes) FROM STDIN",
                 table, metric_columns());
        if ((rc = copy_rows(db, sql, &b, "COPY processes")) != PI_DB_OK)
            { free(b.p); return rc; }
    }
    free(b.p);
    return rc;
}

/* The bytes mapped of the step-node's files (mmap): few files have any, so one call with arrays
 * after ingest_finish made their rows, and none when no file was mapped. */
static int store_mapped(struct pi_db *db, const struct pi_step *st, const char *cid, const char *job)
{
    struct sbuf paths = { 0 }, local = { 0 }, bytes = { 0 };
    size_t n = 0;
    for (size_t i = 0; i < st->nfiles; i++) {
        const struct pi_file *f = &st->files[i];
        if (f->mapped_bytes <= 0)
            continue;
        sb_raw(&paths, n ? "," : "{", 1);
        sb_raw(&local, n ? "," : "{", 1);
        sb_raw(&bytes, n ? "," : "{", 1);
        pg_array_elem(&paths, f->path);
        sb_raw(&local, f->shared ? "f" : "t", 1);
        sb_int(&bytes, f->mapped_bytes);
        n++;
    }
    int rc = PI_DB_OK;
    if (n > 0) {
        sb_raw(&paths, "}", 1);
        sb_raw(&local, "}", 1);
        sb_raw(&bytes, "}", 1);
        const char *p[7] = { cid, job, st->step, st->node, paths.p, local.p, bytes.p };
        rc = check(db, q(db, "SELECT js_data.ingest_mapped($1, $2, $3, $4, $5, $6, $7)", 7, p), PGRES_TUPLES_OK, "mapped bytes");
    }
    free(paths.p);
    free(local.p);
    free(bytes.p);
    return rc;
}

/* COPY the step-node's slice vectors into table (js_data.slice_metrics, or live_slice_metrics). */
static int copy_slices(struct pi_db *db, const struct pi_step *st, const char *cid, const char *job, const char *table)
{
    int rc = PI_DB_OK;
    struct sbuf b = { 0 };
    if (st->nslices) {
        b.len = 0;
        struct sbuf key = { 0 };
        sb_printf(&key, "%s\t%s\t", cid, job);
        sb_text(&key, st->step);
        sb_raw(&key, "\t", 1);
        sb_text(&key, st->node);
        for (size_t i = 0; i < st->nslices; i++) {
            const struct pi_slice *s = &st->slices[i];
            sb_raw(&b, key.p, key.len);
            sb_raw(&b, "\t", 1);
            sb_int(&b, s->slice);
            sb_raw(&b, "\t", 1);
            sb_int(&b, s->processes);
            for (int k = 0; k < JS_M_COUNT; k++) {
                sb_raw(&b, "\t", 1);
                sb_int(&b, s->m[k]);
            }
            sb_raw(&b, "\n", 1);
        }
        free(key.p);
        char sql[4096];
        snprintf(sql, sizeof sql, "COPY %s (cluster_id, job_id, step_id, node, slice, processes, %s) FROM STDIN",
                 table, metric_columns());
        if ((rc = copy_rows(db, sql, &b, "COPY slice_metrics")) != PI_DB_OK)
            { free(b.p); return rc; }
    }
    free(b.p);
    return rc;
}

static int ingest_once(struct pi_db *db, const struct pi_conf *conf, struct pi_step *st, char *const *moved_to)
{
    int rc;
    char cid[16], job[32], nprof[16], nbad[16];
    char *jtext = NULL, *stext = NULL;
    struct sbuf b = { 0 };
    PGresult *r;

    if ((rc = get_cluster_id(db, st->cluster, (int)st->slice_seconds, cid, sizeof cid)) != PI_DB_OK)
        return rc;
    if ((rc = ensure_partitions(db, st)) != PI_DB_OK)
        return rc;
    if (!db->staged) {
        if ((rc = check(db, PQexec(db->conn, "SELECT js_data.create_staging()"), PGRES_TUPLES_OK, "staging table")) != PI_DB_OK)
            return rc;
        db->staged = 1;
    }
    snprintf(job, sizeof job, "%" PRId64, st->job_id);
    /* The commit need not wait for the log flush: no file leaves the spool before
     * pi_db_durable() made it durable (group commit). */
    if ((rc = exec_cmd(db, "BEGIN; SET LOCAL synchronous_commit = off", "begin")) != PI_DB_OK)
        return rc;
    stext = json_dumps(st->rec, JSON_COMPACT);
    long long written = json_integer_value(json_object_get(st->job, "written_ns"));
    /* the job record, unless this session committed this very record before */
    if (db->last_job != st->job_id || db->last_job_written != written)
        jtext = json_dumps(st->job, JSON_COMPACT);
    snprintf(nprof, sizeof nprof, "%zu", st->nprocs);
    snprintf(nbad, sizeof nbad, "%zu", st->nbad);
    {
        /* claim (another daemon on it: busy), the job, the exactly-once key (there: done) */
        const char *p[6] = { cid, jtext, stext, nprof, nbad, db->who };
        r = q(db, "SELECT js_data.ingest_begin($1, $2, $3, $4, $5, $6)", 6, p);
        if (PQresultStatus(r) != PGRES_TUPLES_OK) {
            rc = check(db, r, PGRES_TUPLES_OK, "step record");
            goto out;
        }
        char what = PQgetvalue(r, 0, 0)[0];
        PQclear(r);
        if (what == 'b') {
            rc = PI_DB_BUSY;
            goto out;
        }
        if (what == 'd') {
            rc = PI_DB_DONE;
            goto out;
        }
    }
    if ((rc = copy_procs(db, st, cid, job, "js_data.processes")) != PI_DB_OK ||
        (rc = copy_slices(db, st, cid, job, "js_data.slice_metrics")) != PI_DB_OK)
        goto out;
    /* file accesses */
    if (st->nfiles) {
        b.len = 0;
        for (size_t i = 0; i < st->nfiles; i++) {
            const struct pi_file *f = &st->files[i];
            const char *mode = f->read && f->written ? "rw" : f->read ? "r" : f->written ? "w"
                             : f->opened_r && f->opened_w ? "rw" : f->opened_w ? "w" : "r";
            sb_text(&b, f->path);
            sb_printf(&b, "\t%s\t", f->shared ? "shared" : "local");
            sb_text(&b, f->fstype);
            sb_printf(&b, "\t%s\t%d\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t",
                      mode, f->processes, f->opens, f->reads, f->writes, f->bytes_read, f->bytes_written,
                      f->first_access, f->last_access);
            if (f->first_read < 0) sb_raw(&b, "\\N\t", 3); else sb_printf(&b, "%" PRId64 "\t", f->first_read);
            if (f->last_write < 0) sb_raw(&b, "\\N\t", 3); else sb_printf(&b, "%" PRId64 "\t", f->last_write);
            static const struct { int bit; const char *name; } layers[] = {
                { PI_LAYER_MPIIO, "mpiio" }, { PI_LAYER_POSIX, "posix" }, { PI_LAYER_STDIO, "stdio" }, { PI_LAYER_RENAME, "rename" } };
            for (size_t k = 0, n = 0; k < sizeof layers / sizeof layers[0]; k++)
                if (f->layers & layers[k].bit)
                    sb_printf(&b, "%s%s", n++ ? "," : "", layers[k].name);
            if (f->ino == 0)
                sb_raw(&b, "\t\\N\t\\N\n", 7);
            else
                sb_printf(&b, "\t%" PRId64 "\t%" PRId64 "\n", (int64_t)f->dev, (int64_t)f->ino);
        }
        if ((rc = copy_rows(db, "COPY ingest_files FROM STDIN", &b, "COPY file accesses")) != PI_DB_OK)
            goto out;
    }
    {
        b.len = 0;
        pg_text_array(&b, conf->no_edge_prefix);
        const char *p[5] = { cid, job, st->step, st->node, b.p };
        if ((rc = check(db, q(db, "SELECT js_data.ingest_finish($1, $2, $3, $4, $5)", 5, p), PGRES_TUPLES_OK, "finish")) != PI_DB_OK)
            goto out;
    }
    if ((rc = store_mapped(db, st, cid, job)) != PI_DB_OK)
        goto out;
    if (st->ntrees) { /* the software trees: a handful per step-node, as one jsonb */
        json_t *a = json_array();
        for (size_t i = 0; i < st->ntrees; i++) {
            const struct pi_tree *t = &st->trees[i];
            json_array_append_new(a, json_pack("{s:s, s:I, s:I, s:I, s:I}", "path", t->path, "processes", (json_int_t)t->processes,
                                               "opens", (json_int_t)t->opens, "read_bytes", (json_int_t)t->read_bytes,
                                               "write_bytes", (json_int_t)t->write_bytes));
        }
        char *trees = json_dumps(a, JSON_COMPACT);
        json_decref(a);
        const char *p[5] = { cid, job, st->step, st->node, trees };
        rc = check(db, q(db, "SELECT js_data.ingest_trees($1, $2, $3, $4, $5)", 5, p), PGRES_TUPLES_OK, "software trees");
        free(trees);
        if (rc != PI_DB_OK)
            goto out;
    }
    for (size_t i = 0; i < st->nbad; i++) {
        char file[600];
        snprintf(file, sizeof file, "job.%s/%s/%s", job, JS_PROFILES_DIR_NAME, st->bad[i].name);
        const char *p[7] = { cid, job, st->step, st->node, file, moved_to[i], st->bad[i].reason };
        if ((rc = check(db, q(db, "SELECT js_data.add_quarantine($1, $2, $3, $4, $5, $6, $7)", 7, p), PGRES_TUPLES_OK, "quarantine")) != PI_DB_OK)
            goto out;
    }
    if (st->unrecorded > 0) {
        /* processes the profiler refused to record (the spool quota), as the bundles said */
        char n[32];
        snprintf(n, sizeof n, "%" PRId64, st->unrecorded);
        const char *p[6] = { cid, job, st->step, st->node, n, st->unrecorded_reason[0] ? st->unrecorded_reason : NULL };
        if ((rc = check(db, q(db, "SELECT js_data.ingest_unrecorded($1, $2, $3, $4, $5, $6)", 6, p), PGRES_TUPLES_OK, "unrecorded")) != PI_DB_OK)
            goto out;
    }
    if (st->nbad || pi_step_has_missing(st) || st->unrecorded > 0) {
        /* say what is missing: on this step-node and on the step (over all its nodes) */
        const char *p[4] = { cid, job, st->step, st->node };
        if ((rc = check(db, q(db, "SELECT js_data.ingest_incomplete($1, $2, $3, $4)", 4, p), PGRES_TUPLES_OK, "incomplete")) != PI_DB_OK)
            goto out;
    }
    rc = exec_cmd(db, "COMMIT", "commit");
    if (rc == PI_DB_OK) {
        db->last_job = st->job_id;
        db->last_job_written = written;
    }
out:
    if (rc != PI_DB_OK && rc != PI_DB_DONE && rc != PI_DB_BUSY)
        db->nparts = 0; /* e.g. retention dropped a partition this session thought it had */
    if (rc != PI_DB_OK)
        rollback(db);
    free(b.p);
    free(jtext);
    free(stext);
    return rc;
}

int pi_db_ingest_step(struct pi_db *db, const struct pi_conf *conf, struct pi_step *st, char *const *moved_to)
{
    int rc = PI_DB_RETRY;
    for (int attempt = 0; attempt < 3; attempt++) {
        if ((rc = pi_db_ensure(db, conf->migrate)) != PI_DB_OK)
            return rc;
        rc = ingest_once(db, conf, st, moved_to);
        /* a deadlock or serialisation failure with another daemon: try again at once */
        if (rc != PI_DB_RETRY || !db->conn)
            return rc;
    }
    return rc;
}

/* A live snapshot of a running step-node: its provisional rows replaced in one transaction
 * (docs/ingest.md, "Running steps"). */
static int ingest_live_once(struct pi_db *db, const struct pi_step *st, long long snapshot_ns)
{
    int rc;
    char cid[16], job[32], snap[32], start[32], nprof[16], nrun[16];
    char *jtext = NULL;
    PGresult *r;
    if ((rc = get_cluster_id(db, st->cluster, (int)st->slice_seconds, cid, sizeof cid)) != PI_DB_OK)
        return rc;
    snprintf(job, sizeof job, "%" PRId64, st->job_id);
    snprintf(snap, sizeof snap, "%lld", snapshot_ns);
    int64_t first = -1;
    size_t running = 0;
    for (size_t i = 0; i < st->nprocs; i++) {
        if (first < 0 || st->procs[i].start_ns < first)
            first = st->procs[i].start_ns;
        running += strcmp(st->procs[i].end, "running") == 0;
    }
    snprintf(start, sizeof start, "%" PRId64, first < 0 ? st->start_ns : first);
    snprintf(nprof, sizeof nprof, "%zu", st->nprocs);
    snprintf(nrun, sizeof nrun, "%zu", running);
    if ((rc = exec_cmd(db, "BEGIN; SET LOCAL synchronous_commit = off", "begin")) != PI_DB_OK)
        return rc;
    long long written = json_integer_value(json_object_get(st->job, "written_ns"));
    if (db->last_job != st->job_id || db->last_job_written != written)
        jtext = json_dumps(st->job, JSON_COMPACT);
    {
        const char *p[10] = { cid, jtext, job, st->step, st->node, snap, start, nprof, nrun, db->who };
        r = q(db, "SELECT js_data.live_begin($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)", 10, p);
        if (PQresultStatus(r) != PGRES_TUPLES_OK) {
            rc = check(db, r, PGRES_TUPLES_OK, "live snapshot");
            goto out;
        }
        char what = PQgetvalue(r, 0, 0)[0];
        PQclear(r);
        if (what != 'o') {
            rc = what == 'b' ? PI_DB_BUSY : PI_DB_DONE;
            goto out;
        }
    }
    if ((rc = copy_procs(db, st, cid, job, "js_data.live_processes")) != PI_DB_OK ||
        (rc = copy_slices(db, st, cid, job, "js_data.live_slice_metrics")) != PI_DB_OK)
        goto out;
    rc = exec_cmd(db, "COMMIT", "commit");
    if (rc == PI_DB_OK) {
        db->last_job = st->job_id;
        db->last_job_written = written;
    }
out:
    if (rc != PI_DB_OK)
        rollback(db);
    free(jtext);
    return rc;
}

int pi_db_ingest_live(struct pi_db *db, const struct pi_conf *conf, const struct pi_step *st, long long snapshot_ns)
{
    int rc = PI_DB_RETRY;
    for (int attempt = 0; attempt < 3; attempt++) {
        if ((rc = pi_db_ensure(db, conf->migrate)) != PI_DB_OK)
            return rc;
        rc = ingest_live_once(db, st, snapshot_ns);
        if (rc != PI_DB_RETRY || !db->conn)
            return rc;
    }
    return rc;
}

int pi_db_ingest_job(struct pi_db *db, const char *cluster, const json_t *job, int slice_seconds)
{
    char cid[16];
    int rc = get_cluster_id(db, cluster, slice_seconds, cid, sizeof cid);
    if (rc != PI_DB_OK)
        return rc;
    char *text = json_dumps(job, JSON_COMPACT);
    const char *p[2] = { cid, text };
    rc = check(db, q(db, "SELECT js_data.ingest_job($1, $2)", 2, p), PGRES_TUPLES_OK, "job record");
    free(text);
    return rc;
}

int pi_db_quarantine(struct pi_db *db, const char *cluster, long long job, const char *step, const char *node,
                     const char *file, const char *moved_to, const char *reason)
{
    char cid[16], j[32];
    int rc = get_cluster_id(db, cluster, 4, cid, sizeof cid);
    if (rc != PI_DB_OK)
        return rc;
    snprintf(j, sizeof j, "%lld", job);
    const char *p[7] = { cid, j, step, node, file, moved_to, reason };
    return check(db, q(db, "SELECT js_data.add_quarantine($1, $2, $3, $4, $5, $6, $7)", 7, p), PGRES_TUPLES_OK, "quarantine");
}

int pi_db_durable(struct pi_db *db)
{
    /* A transaction that writes, committed with synchronous_commit = on, returns once the log
     * is flushed up to its commit record, so every earlier (asynchronous) commit is durable.
     * It must write: a commit that wrote no log record is not flushed (an xid alone is not
     * enough). */
    const char *p[1] = { db->who };
    return check(db, q(db, "INSERT INTO js_data.ingest_sessions (backend_pid, who, at) VALUES (pg_backend_pid(), $1, now()) "
                           "ON CONFLICT (backend_pid) DO UPDATE SET who = excluded.who, at = excluded.at", 1, p),
                 PGRES_COMMAND_OK, "flush the commits");
}

int pi_db_rollup(struct pi_db *db, long *folded)
{
    *folded = 0;
    for (int attempt = 0; attempt < 1000; attempt++) {
        PGresult *r = PQexec(db->conn, "SELECT js_data.rollup_totals(500)");
        if (PQresultStatus(r) != PGRES_TUPLES_OK) {
            int rc = check(db, r, PGRES_TUPLES_OK, "fold the slice totals");
            if (rc == PI_DB_RETRY && db->conn && attempt < 3)
                continue; /* a deadlock with another daemon */
            return rc;
        }
        long n = atol(PQgetvalue(r, 0, 0));
        PQclear(r);
        *folded += n;
        if (n == 0)
            break;
    }
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
        return check(db, r, PGRES_TUPLES_OK, "status");
    fprintf(out, "ingested step records: %s\nlast minute: %s\nlast hour: %s\nlast ingest: %s\nquarantined files: %s\n"
            "step records waiting for the slice totals: %s\nschema version: %s\n",
            PQgetvalue(r, 0, 0), PQgetvalue(r, 0, 1), PQgetvalue(r, 0, 2), PQgetvalue(r, 0, 3), PQgetvalue(r, 0, 4),
            PQgetvalue(r, 0, 5), PQgetvalue(r, 0, 6));
    PQclear(r);
    return PI_DB_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jobscreen.cgi: the JSON API behind the workflow viewer.
 *
 * One header for the CGI's parts; every name starts with jsw_. The CGI trusts only the user
 * name its web server authenticated (REMOTE_USER), reads the database through the views of
 * sql/ with parameterised queries only, and answers JSON (errors too). */
#ifndef JSWEB_H
#define JSWEB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "profile_format.h"

#define JSW_NAME_MAX 64         /* user and group names */
#define JSW_CONNINFO_MAX 1024
#define JSW_MAX_ADMINS 64
#define JSW_MAX_PARAMS 32
#define JSW_PARAM_VALUE_MAX 256 /* longer values are rejected (400) */
#define JSW_QUERY_STRING_MAX 4096

/* --- configuration (jobscreen-web.conf(5)) ----------------------------------------------- */
struct jsw_config {
    char conninfo[JSW_CONNINFO_MAX];          /* libpq connection string */
    char admins[JSW_MAX_ADMINS][JSW_NAME_MAX]; /* user names that see everything */
    int n_admins;
    char admin_group[JSW_NAME_MAX];           /* members of this Unix group see everything */
    int statement_timeout_ms;                 /* per query; 0 = server default */
    int max_rows;                             /* upper bound on list lengths */
    bool munge_auth;                          /* without REMOTE_USER, a munge credential names the user */
    char munge_socket[256];                   /* munged's socket ("": munge's default) */
    int background_min_jobs;                  /* a background of fewer other jobs is not shown per slice to non-admins */
    char users_cluster[JSW_NAME_MAX];         /* "": a user name is the same person on every cluster */
    int co2_g_per_kwh;                        /* the site's grams of CO2 per kWh; -1: not set, no CO2 shown */
};

/* Parse the text of a configuration file. Returns 0, or -1 with a message in err
 * ("line 3: unknown key 'conifo'"). */
int jsw_config_parse(struct jsw_config *cfg, const char *text, char *err, size_t errlen);
/* Read and parse the file at path (JOBSCREEN_CONF or the built-in default); errors name it:
 * "PATH:3: unknown key 'conifo'". */
int jsw_config_load(struct jsw_config *cfg, const char *path, char *err, size_t errlen);
void jsw_config_defaults(struct jsw_config *cfg);

/* --- who is asking ------------------------------------------------------------------------- */
/* A user name as the web server passed it: 1-63 characters of [A-Za-z0-9._@-], not starting
 * with '-' or '.'. Anything else is refused (401) rather than guessed at. */
bool jsw_user_name_valid(const char *name);
/* Admin by the configured list, or by membership in admin_group (primary or supplementary). */
bool jsw_is_admin(const struct jsw_config *cfg, const char *user);
/* The user a munge credential (the header X-Jobscreen-Credential) names, when munge_auth is
 * on: munged decodes it (refusing replays and expired ones), it must cover this query string,
 * and its uid must have a name. 0 with user set, or -1 with the reason. */
int jsw_munge_user(const struct jsw_config *cfg, const char *cred, const char *query, char *user, size_t usize,
                   char *err, size_t errlen);

/* --- the request --------------------------------------------------------------------------- */
struct jsw_param {
    char name[32];
    char value[JSW_PARAM_VALUE_MAX];
};
struct jsw_request {
    char user[JSW_NAME_MAX];
    bool admin;
    int max_rows; /* max_rows of the configuration: no list is longer */
    int background_min_jobs; /* of the configuration */
    const char *users_cluster; /* of the configuration: the cluster whose users log in here, or "" */
    int co2_g_per_kwh;         /* of the configuration (-1: not set) */
    char endpoint[32];
    struct jsw_param params[JSW_MAX_PARAMS];
    int n_params;
};

/* Decode application/x-www-form-urlencoded text into params. Returns 0 or -1 with a message
 * (bad escape, NUL or control character, name or value too long, too many, repeated name). */
int jsw_parse_query(struct jsw_request *req, const char *qs, char *err, size_t errlen);
/* The endpoint named by PATH_INFO ("/workflows") or else the parameter "q"; 0 or -1. */
int jsw_parse_endpoint(struct jsw_request *req, const char *path_info, char *err, size_t errlen);
const char *jsw_param(const struct jsw_request *req, const char *name);

/* Typed parameters: each returns 0 when absent (leaving *out alone, *present = false), 0 with
 * the value, or -1 with a message naming the parameter (-> 400). */
int jsw_param_int(const struct jsw_request *req, const char *name, int64_t min, int64_t max,
                  int64_t *out, bool *present, char *err, size_t errlen);
/* A time: seconds since the epoch (integer) or ISO 8601 UTC "2026-11-21T10:00:00Z"
 * (also without seconds or "Z", or a date alone). */
int jsw_param_time(const struct jsw_request *req, const char *name, int64_t *out, bool *present,
                   char *err, size_t errlen);
/* A word from a fixed list (e.g. scope=cluster|nodes). */
int jsw_param_enum(const struct jsw_request *req, const char *name, const char *const *allowed,
                   const char **out, char *err, size_t errlen);
/* Free text for a filter (names, workflow tags): printable, no control characters. */
int jsw_param_text(const struct jsw_request *req, const char *name, const char **out,
                   char *err, size_t errlen);
/* A Slurm step in words: a number, or batch, extern, interactive. */
bool jsw_step_valid(const char *step);
int jsw_parse_time(const char *s, int64_t *out);

/* --- the reply ----------------------------------------------------------------------------- */
/* Write a CGI response: Status header, JSON content type, no-store, nosniff; body dumped by
 * Jansson (which escapes every string; with JSON_ESCAPE_SLASH so "</script>" cannot close a
 * script element). Steals body. */
void jsw_reply(int status, json_t *body);
void jsw_reply_error(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
json_t *jsw_error_body(int status, const char *message);
const char *jsw_status_text(int status);
/* The same for a body already written as JSON text (jsw_text_take): tagged, maybe gzipped,
 * and sent as jsw_reply sends a dumped body. Takes text (malloc'd; NULL: a 500). */
void jsw_reply_text(int status, char *text, size_t n);

/* --- JSON written as text (json_text.c) ------------------------------------------------------ */
/* For replies too large to build as Jansson objects: appends never fail one by one; a failed
 * allocation makes jsw_text_take return NULL. Zero-initialise. */
struct jsw_text {
    char *buf;
    size_t n, cap;
    bool oom;
};
void jsw_text_raw(struct jsw_text *t, const char *s, size_t n); /* as it is: JSON already */
void jsw_text_lit(struct jsw_text *t, const char *s);          /* as it is: JSON already */
void jsw_text_int(struct jsw_text *t, int64_t v);
void jsw_text_real(struct jsw_text *t, double v);              /* not finite: null */
void jsw_text_str(struct jsw_text *t, const char *s);          /* quoted and escaped as Jansson does */
void jsw_text_json(struct jsw_text *t, const json_t *v);       /* dumped as jsw_reply dumps */
/* a jsonb cell's text as jsw_text_json would write it once loaded; false (nothing written): it
 * could not, load it with Jansson (jsonb_text.c) */
bool jsw_text_jsonb(struct jsw_text *t, const char *v);
bool jsw_utf8_valid(const unsigned char *s); /* as Jansson accepts it (jsonb_text.c) */
/* [v[0], v[stride], ... v[(n-1) * stride]] */
void jsw_text_int_array(struct jsw_text *t, const int64_t *v, size_t n, size_t stride);
/* the text (NUL-ended, *n bytes) for jsw_reply_text, or NULL after a failed allocation */
char *jsw_text_take(struct jsw_text *t, size_t *n);
void jsw_text_free(struct jsw_text *t);

/* --- the database -------------------------------------------------------------------------- */
struct pg_conn;
typedef struct pg_conn jsw_db;
jsw_db *jsw_db_connect(const struct jsw_config *cfg, char *err, size_t errlen);
void jsw_db_close(jsw_db *db);
/* Run a named query of queries.sql with text parameters (NULL = SQL NULL) and return its rows
 * as a JSON array of objects, one member per column, typed by the column's type (integers,
 * reals, booleans, json/jsonb parsed, NULL as null, the rest strings). NULL on error (logged
 * to stderr, the message in err). */
json_t *jsw_db_rows(jsw_db *db, const char *query_name, int nparams, const char *const *params,
                    char *err, size_t errlen);
/* The same query's raw result (PGRES_TUPLES_OK; PQclear it), or NULL on error. */
struct pg_result;
struct pg_result *jsw_db_result(jsw_db *db, const char *query_name, int nparams,
                                const char *const *params, char *err, size_t errlen);
/* type OIDs of pg_type.h (stable across PostgreSQL versions), as PQftype gives them */
enum {
    OID_BOOL = 16, OID_BYTEA = 17, OID_INT8 = 20, OID_INT2 = 21, OID_INT4 = 23, OID_OID = 26,
    OID_JSON = 114, OID_FLOAT4 = 700, OID_FLOAT8 = 701, OID_NUMERIC = 1700, OID_JSONB = 3802
};
/* The same in binary format (integers big-endian, bytea raw: see PQgetlength). */
struct pg_result *jsw_db_result_binary(jsw_db *db, const char *query_name, int nparams,
                                       const char *const *params, char *err, size_t errlen);
/* An integer cell of a binary result (int2, int4 or int8: big-endian two's complement): 0, or
 * -1 when the column is of another type or NULL. */
int jsw_bin_int(const struct pg_result *r, int row, int col, int64_t *v);
/* A bytea cell of a binary result: its bytes (len set), NULL for SQL NULL or another type. */
const unsigned char *jsw_bin_bytes(const struct pg_result *r, int row, int col, size_t *len);
/* The rows of a query written as JSON text (db_text.c), as jsw_db_rows and jsw_dump would
 * write them: an array of at most limit rows (limit < 0: all) appended to t; the number of
 * rows the query returned, or -1 with err set. */
int jsw_db_rows_text(jsw_db *db, const char *query_name, int nparams, const char *const *params,
                     struct jsw_text *t, int limit, char *err, size_t errlen);
/* The first row's object left open ("{" and its members, no "}") for the caller to add to
 * and close: 1, or 0 when there is none (nothing written), or -1 with err set. */
int jsw_db_row_open_text(jsw_db *db, const char *query_name, int nparams, const char *const *params,
                         struct jsw_text *t, char *err, size_t errlen);
/* The first row of jsw_db_rows, or json null when there is none; NULL on error. */
json_t *jsw_db_row(jsw_db *db, const char *query_name, int nparams, const char *const *params,
                   char *err, size_t errlen);
/* The SQL text of a named query (compiled in from queries.sql), or NULL. */
const char *jsw_query_text(const char *name);

/* The step's "gpus" (endpoints_gpu.c): its GPUs per node, with their slices when the request
 * asks (gpu_series=1), added to step; params: the step query's. 0, -1 on a database error,
 * -2 on a bad parameter (err says which). */
int jsw_step_gpus(jsw_db *db, const struct jsw_request *req, json_t *step, int nparams, const char *const *params,
                  char *err, size_t errlen);

/* An export's step (docs/api.md, export) gains "jobscreen": its GPUs and energy, from the
 * export_steps row r (endpoints_gpu.c). */
void jsw_export_step_gpus(json_t *o, json_t *r);

/* --- per-slice series (web_series.c) ------------------------------------------------------- */
/* The slices first .. first + n - 1 of a step, decoded from the series queries of queries.sql
 * (series_own, series_cluster, series_nodes: docs/schema.md, "Series"): per slice a count
 * (nodes or step-nodes), processes, and the metrics of JS_PROFILE_METRICS (all, or the one
 * asked for: the others stay 0). */
struct jsw_slices {
    int64_t first;
    size_t n;
    int64_t *count, *procs; /* n; n */
    /* per metric its n values, or NULL where no row had the metric (zeros): a reply of one
     * metric zeroes and walks one column, not n x JS_M_COUNT values (a quarter of the
     * background's CPU went on zeroing them) */
    int64_t *v[JS_M_COUNT];
    int64_t *kio;     /* n x JS_KIO_COUNT: the kernel's counts, once added (else NULL) */
    long saturated;   /* sums that reached INT64_MAX and were kept there */
};
/* n zeroed values of size bytes, for the per-slice arrays: from 2 MiB on aligned and advised as
 * huge pages (a plain CGI touches every page of them once: an all-metrics background took 11,447
 * page faults, half its CPU; 3,290 so), else malloc'd; NULL when out of memory. free() it. */
void *jsw_zalloc(size_t n, size_t size);
int jsw_slices_init(struct jsw_slices *s, int64_t first, int64_t last);
void jsw_slices_free(struct jsw_slices *s);
/* Metric m's column, allocated (zeros) on first use; NULL when out of memory. */
int64_t *jsw_slices_column(struct jsw_slices *s, int m);
/* Metric m at slice k (0 where the column is NULL). */
static inline int64_t jsw_slices_at(const struct jsw_slices *s, int m, size_t k)
{
    return s->v[m] ? s->v[m][k] : 0;
}
/* Add the rows of a series_* query (run with params); 0, or -1 with err set. */
int jsw_slices_add(struct jsw_slices *s, jsw_db *db, const char *query_name, int nparams,
                   const char *const *params, char *err, size_t errlen);
/* Add the rows of series_kernel: the kernel's counts per slice (profile format 5). */
int jsw_slices_add_kernel(struct jsw_slices *s, jsw_db *db, int nparams, const char *const *params,
                          char *err, size_t errlen);
/* The spread of the step's processes per point of width slices of first .. first + n - 1
 * (web_spread.c, query step_spread with the step endpoint's parameters), written to t as the
 * object "spread" of docs/api.md; 0, or -1 with err set. */
int jsw_spread_text(struct jsw_text *t, jsw_db *db, int nparams, const char *const *params, int64_t first, size_t n,
                    size_t width, char *err, size_t errlen);
/* The key (params) of the spread the keeper stores beside a finished step's replies: the spread
 * at width 1 (jsw_spread_text) of the n slices from first; false: too long for size. */
bool jsw_spread_key(char *key, size_t size, const char *step, int64_t first, size_t n);
/* That stored spread (body) written to t at width as jsw_spread_text writes it: 0, or -1 (nothing
 * written) when body does not read as that; then computed. */
int jsw_spread_stored_text(struct jsw_text *t, const char *body, int64_t first, size_t n, size_t width);
/* Add the rows of series_live (plain per-slice vectors; the kernel's counts too when s has them). */
int jsw_slices_add_live(struct jsw_slices *s, jsw_db *db, int nparams, const char *const *params,
                        char *err, size_t errlen);

/* --- per-slice series as columns (series_text.c; docs/api.md, "Series") ---------------------- */
/* points of width slices over n slices (the last may hold fewer) */
size_t jsw_series_points(size_t n, size_t w);
/* "{first_slice, slice_seconds, slices, slices_per_point, points": a series object left open */
void jsw_series_head(struct jsw_text *t, int64_t first, int64_t slice_seconds, size_t n, size_t w);
/* "name": (with a comma before it when comma) */
void jsw_text_key(struct jsw_text *t, bool comma, const char *name);
/* [v[0], ...] with null where known[i] is false */
void jsw_text_int_array_known(struct jsw_text *t, const int64_t *v, const bool *known, size_t n);
/* A Jansson object written without its closing brace, for members written as text to follow;
 * true when it has members (the next one needs a comma). */
bool jsw_text_open_object(struct jsw_text *t, const json_t *o);
/* The step's own series (nodes, processes, metrics per point of w slices), left open for its
 * spread; 0, or -1 out of memory. */
int jsw_step_series_text(struct jsw_text *t, const struct jsw_slices *own, int64_t slice_seconds, size_t w);
/* The background's series (the step's own metrics against the other jobs', per point of w
 * slices; only: one metric, -1 all; withheld: without the others), closed; 0, or -1. */
int jsw_background_series_text(struct jsw_text *t, const struct jsw_slices *own, const struct jsw_slices *tot,
                               int only, bool withheld, int64_t slice_seconds, size_t w);
/* The version of this API (docs/api.md, "Versions"), in the reply of me. */
#define JSW_API_VERSION 2

/* Rank the jobs of the query background_rank (run with params) by the sum of their series in
 * the slices first .. last, best first (ties: the smaller job id): *out (malloc'd) holds them;
 * returns how many, or -1 with err set. */
struct jsw_rank {
    int64_t job, value;
};
int jsw_series_rank(jsw_db *db, int nparams, const char *const *params, int64_t first, int64_t last,
                    struct jsw_rank **out, char *err, size_t errlen);

/* --- endpoints ----------------------------------------------------------------------------- */
/* A handler returns the body for 200, or NULL after setting *status and err (400/403/404/500). */
typedef json_t *(*jsw_handler)(jsw_db *db, const struct jsw_request *req, int *status,
                               char *err, size_t errlen);
/* The same for an endpoint that writes its reply as JSON text (struct jsw_text): the text
 * (malloc'd, *n bytes) for 200, or NULL after setting *status and err. */
typedef char *(*jsw_text_handler)(jsw_db *db, const struct jsw_request *req, size_t *n, int *status,
                                  char *err, size_t errlen);
struct jsw_route {
    const char *name;
    jsw_handler handler;     /* one of the two */
    bool needs_db;
    jsw_text_handler text_handler;
};
const struct jsw_route *jsw_route_find(const char *endpoint);
/* Run a route's handler after the checks every querying endpoint shares (cluster=): the
 * reply's JSON text (malloc'd, *n bytes; a Jansson handler's body dumped), or NULL after
 * setting *status and err. */
char *jsw_dispatch(const struct jsw_route *r, jsw_db *db, const struct jsw_request *req, size_t *n,
                   int *status, char *err, size_t errlen);
/* A body as jsw_reply writes it: compact, slashes escaped, a newline at the end; NULL when it
 * cannot be encoded. Steals body. */
char *jsw_dump(json_t *body, size_t *n);
extern const struct jsw_route jsw_routes[];

/* The whole request, from the environment (REMOTE_USER, REQUEST_METHOD, PATH_INFO,
 * QUERY_STRING, JOBSCREEN_CONF): what main() calls. Returns the HTTP status sent. */
int jsw_serve(void);

/* --- serving many requests: plain CGI or FastCGI (serve.c, reply.c, web_db.c, cgi_main.c) -- */
/* Where a request's variables come from and where its reply goes. envp NULL: the process
 * environment (plain CGI); else the request's FastCGI parameters ("NAME=value", NULL-ended),
 * and nothing of the process environment is read for the request (JOBSCREEN_CONF excepted).
 * write NULL: stdout. */
struct jsw_io {
    char **envp;
    int (*write)(void *ctx, const char *buf, size_t n); /* 0, or -1 when the client is gone */
    void *ctx;
};
/* A request variable (REMOTE_USER, QUERY_STRING, HTTP_ACCEPT_ENCODING ...) or NULL. */
const char *jsw_io_getenv(const struct jsw_io *io, const char *name);
/* What stays between the requests a FastCGI process answers: the configuration (read again
 * only when its file changes) and ONE database connection (re-opened when it broke). */
struct jsw_server;
/* persistent: keep the connection across requests and use prepared statements (FastCGI);
 * otherwise each request connects and closes (plain CGI). */
struct jsw_server *jsw_server_new(bool persistent);
void jsw_server_free(struct jsw_server *s);
/* Answer one request; returns the HTTP status sent. */
int jsw_serve_request(struct jsw_server *s, const struct jsw_io *io);
/* The reply of the request being answered goes to io; gzip when accept_encoding allows it;
 * 304 without a body when if_none_match (the If-None-Match header, or NULL) names the reply's
 * tag. jsw_reply and jsw_reply_error write there (stdout when never set). */
void jsw_reply_to(const struct jsw_io *io, const char *accept_encoding, const char *if_none_match);
/* A reply's entity tag: W/"16 hex digits" of its JSON; and whether If-None-Match names it. */
#define JSW_ETAG_LEN 24
void jsw_etag(const char *body, size_t n, char out[JSW_ETAG_LEN]);
bool jsw_etag_matches(const char *if_none_match, const char *etag);
/* Whether an Accept-Encoding header value accepts gzip (a gzip or * coding with q > 0). */
bool jsw_accepts_gzip(const char *accept_encoding);
/* Replies of at least this many bytes are compressed when the client accepts gzip. */
#define JSW_GZIP_MIN 1024
/* Whether the request being answered takes gzip (jsw_reply_to). */
bool jsw_reply_gzip(void);
/* gzip (RFC 1952) of n bytes at level (1-9), malloc'd; NULL when it fails. */
unsigned char *jsw_gzip(const char *in, size_t n, int level, size_t *outlen);
/* A stored reply (stored.c): 304 when If-None-Match names etag, else 200 with body, n bytes
 * as stored (gzipped: the gzip of the JSON, sent with Content-Encoding: gzip). */
void jsw_reply_stored(const char *etag, const char *body, size_t n, bool gzipped);

/* --- replies kept ahead (stored.c; docs/web.md, "Stored replies") ---------------------------- */
/* Serve the request from the replies the ingest stored, when it is one that is stored (the
 * workflow graph by id= or job=, a finished step's reply in the viewer's forms, the job reply
 * by id= to its owner, the file reply by id= to a viewer it was computed for), the viewer may see it and it is current: 1 (the reply sent), else 0
 * (nothing sent: compute it). */
int jsw_stored_serve(jsw_db *db, const struct jsw_request *req);
/* A workflow graph as the CGI computes it for viewer (not an admin): its JSON text (malloc'd,
 * *n bytes, ending with a newline) and ETag, or NULL with *status (404: none the viewer may
 * see) and err. For the keeper of profile_ingest: the same handler the CGI runs. */
char *jsw_stored_compute_workflow(jsw_db *db, const char *viewer, int64_t workflow, size_t *n,
                                  char etag[JSW_ETAG_LEN], int *status, char *err, size_t errlen);
/* The job reply as the CGI computes it for viewer (its owner, not an admin), of job of cluster:
 * its JSON text (malloc'd, *n bytes) and ETag, or NULL with *status and err (stored.c). */
char *jsw_stored_compute_job(jsw_db *db, const char *viewer, const char *cluster, int64_t job, size_t *n,
                             char etag[JSW_ETAG_LEN], int *status, char *err, size_t errlen);
/* The file reply as the CGI computes it for viewer (not an admin), of file of cluster: its JSON
 * text (malloc'd, *n bytes), ETag and the params it is stored under (user=viewer;
 * JSW_STORED_PARAMS_MAX bytes), or NULL with
 * *status and err (stored_compute.c). */
char *jsw_stored_compute_file(jsw_db *db, const char *viewer, const char *cluster, int64_t file,
                              char *params, size_t *n, char etag[JSW_ETAG_LEN], int *status,
                              char *err, size_t errlen);
/* What the stored forms share (stored.c): whether the request has no parameter but names
 * (n of them) and a valid cluster= if any; a request of viewer to endpoint, no parameter yet
 * (static: one at a time), its parameters; such a request computed by its route, with its ETag. */
bool jsw_stored_only(const struct jsw_request *req, const char *const *names, size_t n);
struct jsw_request *jsw_stored_request(const char *viewer, const char *endpoint);
/* Parameter i (0, 1, ... in turn) of such a request set to name=value */
void jsw_stored_param(struct jsw_request *req, int i, const char *name, const char *value);
char *jsw_stored_compute(jsw_db *db, const struct jsw_request *req, size_t *n, char etag[JSW_ETAG_LEN], int *status,
                         char *err, size_t errlen);
/* A finished step's reply (stored_step.c): whether the request is one of the stored forms (job,
 * step, points, gpu_series, cluster= aside; valid), with its job, step and canonical params. */
#define JSW_STORED_PARAMS_MAX 96
bool jsw_stored_step_key(const struct jsw_request *req, int64_t *job, const char **step, char *params, size_t n);
/* The step reply a keeper stores: of job and step of cluster, as viewer (its owner, not an
 * admin) at points with or without the GPU series, the process list capped by max_rows. */
struct jsw_stored_step {
    const char *viewer, *cluster, *step;
    int64_t job;
    int points, max_rows;
    bool gpu_series;
};
/* Computed as the CGI does: the JSON text (malloc'd, *n bytes), its ETag and canonical params
 * (the key it is stored by), or NULL with *status and err. */
char *jsw_stored_compute_step(jsw_db *db, const struct jsw_stored_step *k, char params[JSW_STORED_PARAMS_MAX],
                              size_t *n, char etag[JSW_ETAG_LEN], int *status, char *err, size_t errlen);
/* The spread of k's step at width 1 (its every slice; jsw_spread_key gives params), stored beside
 * its replies so that the forms computed read it instead of every step-node's series: the text
 * (malloc'd, *n bytes), or NULL with *status (404: no slices) and err. */
char *jsw_stored_compute_spread(jsw_db *db, const struct jsw_stored_step *k, char params[JSW_STORED_PARAMS_MAX],
                                size_t *n, int *status, char *err, size_t errlen);
/* web_db.c: run the named queries as prepared statements (PQprepare once per connection, then
 * PQexecPrepared), for connections that serve many requests. Off: PQexecParams. */
void jsw_db_use_prepared(bool on);
/* The next query, on a kept connection, runs on its statement's generic plan: a list without
 * filters, whose generic plan runs as fast as a custom one but is costed far higher (PostgreSQL
 * would plan it anew for every request) */
void jsw_db_generic_next(void);
/* After a request: end any transaction left open; false when the connection is unusable. */
bool jsw_db_idle(jsw_db *db);
/* Counters of the process (for logs and tests): connections opened, statements prepared. */
struct jsw_db_stats {
    unsigned long connects, prepares, executes, reconnects;
};
const struct jsw_db_stats *jsw_db_stats(void);

#endif

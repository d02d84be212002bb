/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jobscreen(1): the terminal report of one of the caller's jobs or workflows, from the site's
 * jobscreen.cgi (docs/cli.md). The caller's identity is proven as Slurm's own commands prove
 * it: a munge credential, made here as the calling user, covers the exact request and the CGI
 * has munged decode it (munge_auth in jobscreen-web.conf(5)); munged refuses a credential used
 * twice or older than its TTL. The CGI decides what the user may see (their own jobs; admins
 * all), as for the viewer. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <jansson.h>

#include "credential.h"
#include "kvconf.h"
#include "report.h"

#ifndef JSR_DEFAULT_CONF
#define JSR_DEFAULT_CONF "/etc/jobscreen/cli.conf"
#endif

/* exit statuses (docs/cli.md) */
enum { EXIT_REFUSED = 1, EXIT_USAGE = 2, EXIT_SERVER = 3 };

#define REPLY_MAX (256u << 20) /* a reply larger than this is not a jobscreen reply */

struct settings {
    char url[1024];
    char munge_socket[256];
};

static int usage(FILE *out, int status)
{
    fprintf(out, "usage: jobscreen [--json] [--cluster NAME] [--url URL] JOBID\n"
                 "       jobscreen [--json] [--cluster NAME] [--url URL] -w WORKFLOW\n"
                 "       jobscreen [--json] [...] --compare OTHER JOBID | -w WORKFLOW --compare OTHER\n"
                 "       jobscreen [...] --export JOBID | -w WORKFLOW --export\n"
                 "The report of one of your jobs (state, times, CPU efficiency, peak memory, I/O, top\n"
                 "files, runtime share per step, related jobs) or workflows, or two runs side by\n"
                 "side. See jobscreen(1).\n");
    return status;
}

/* one key of cli.conf; the line's position is added by common/kvconf.c */
static int set_key(void *ctx, const char *key, const char *value, char *why, size_t whysize)
{
    struct settings *st = ctx;
    if (!strcmp(key, "co2_g_per_kwh")) { /* the site's grams of CO2 per kWh: the report's energy says its CO2 */
        long long g;
        if (js_kv_int(value, 0, 100000, &g) < 0) {
            snprintf(why, whysize, "co2_g_per_kwh: '%s' is not a whole number of grams from 0 to 100000", value);
            return -1;
        }
        jsr_set_co2((double)g);
        return 0;
    }
    char *dst = !strcmp(key, "url") ? st->url : !strcmp(key, "munge_socket") ? st->munge_socket : NULL;
    size_t cap = dst == st->url ? sizeof st->url : sizeof st->munge_socket;
    if (!dst) {
        snprintf(why, whysize, "unknown key '%s'", key);
        return -1;
    }
    if (strlen(value) >= cap) {
        snprintf(why, whysize, "%s is too long", key);
        return -1;
    }
    snprintf(dst, cap, "%s", value);
    return 0;
}

/* url and munge_socket. A missing file is no error when it is the default one (the URL may
 * come from --url or JOBSCREEN_URL). */
static int read_settings(struct settings *st, const char *path, bool must_exist)
{
    char err[1600];
    if (js_kv_parse_file(path, set_key, st, err, sizeof err) < 0) {
        if (!must_exist && errno == ENOENT)
            return 0;
        fprintf(stderr, "jobscreen: %s\n", err);
        return -1;
    }
    return 0;
}

struct buffer {
    char *data;
    size_t len;
};

static size_t collect(char *p, size_t size, size_t n, void *ctx)
{
    struct buffer *b = ctx;
    size_t add = size * n;
    if (b->len + add > REPLY_MAX)
        return 0;
    char *d = realloc(b->data, b->len + add + 1);
    if (!d)
        return 0;
    memcpy(d + b->len, p, add);
    b->data = d;
    b->len += add;
    d[b->len] = '\0';
    return add;
}

/* GET url?query with a credential over the query; the reply parsed. NULL (with the message
 * written, *status set) when it fails. */
static json_t *fetch(const struct settings *st, const char *query, int *status)
{
    *status = EXIT_SERVER;
    size_t cn = strlen(JS_CLI_CREDENTIAL_PREFIX) + strlen(query);
    char *covered = malloc(cn + 1), *cred = NULL, why[256];
    if (!covered)
        return NULL;
    snprintf(covered, cn + 1, "%s%s", JS_CLI_CREDENTIAL_PREFIX, query);
    int rc = js_credential_make(st->munge_socket[0] ? st->munge_socket : NULL, covered, cn, &cred, why, sizeof why);
    free(covered);
    if (rc < 0) {
        fprintf(stderr, "jobscreen: cannot prove who you are: %s (is munged running?)\n", why);
        return NULL;
    }
    size_t hl = strlen(JS_CREDENTIAL_HEADER) + strlen(cred) + 3, ul = strlen(st->url) + strlen(query) + 2;
    char *header = malloc(hl), *url = malloc(ul);
    struct buffer body = { 0 };
    json_t *reply = NULL;
    CURL *c = curl_easy_init();
    if (!header || !url || !c) {
        fprintf(stderr, "jobscreen: out of memory\n");
        goto out;
    }
    snprintf(header, hl, "%s: %s", JS_CREDENTIAL_HEADER, cred);
    snprintf(url, ul, "%s%s%s", st->url, strchr(st->url, '?') ? "&" : "?", query);
    struct curl_slist *headers = curl_slist_append(NULL, header);
    char errbuf[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "jobscreen/" PACKAGE_VERSION);
    curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &body);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, 120L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    CURLcode cc = curl_easy_perform(c);
    curl_slist_free_all(headers);
    long http = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &http);
    if (cc != CURLE_OK) {
        fprintf(stderr, "jobscreen: %s: %s\n", st->url, errbuf[0] ? errbuf : curl_easy_strerror(cc));
        goto out;
    }
    json_error_t je;
    reply = body.data ? json_loadb(body.data, body.len, 0, &je) : NULL;
    if (!reply || !json_is_object(reply)) {
        fprintf(stderr, "jobscreen: %s: HTTP %ld, not a jobscreen reply\n", st->url, http);
        json_decref(reply);
        reply = NULL;
        goto out;
    }
    if (http != 200) {
        /* the server's message ("no job 12 of yours"), its control characters replaced */
        const char *msg = json_string_value(json_object_get(json_object_get(reply, "error"), "message"));
        char clean[512];
        jsr_clean(clean, sizeof clean, msg ? msg : "refused", 400, 1);
        fprintf(stderr, "jobscreen: %s\n", clean);
        *status = http >= 400 && http < 500 ? EXIT_REFUSED : EXIT_SERVER;
        json_decref(reply);
        reply = NULL;
        goto out;
    }
    *status = 0;
out:
    if (c)
        curl_easy_cleanup(c);
    free(header);
    free(url);
    free(body.data);
    free(cred);
    return reply;
}

/* NO_COLOR (no-color.org) or TERM=dumb: no colour even on a terminal */
static bool no_colour(void)
{
    const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
    return (nc && *nc) || (term && !strcmp(term, "dumb"));
}

/* a Slurm cluster name as the CGI takes it */
static bool name_valid(const char *s)
{
    if (!*s || strlen(s) > 63)
        return false;
    for (const char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
            return false;
    return true;
}

/* a positive decimal id */
static bool id_valid(const char *s)
{
    if (!*s || strlen(s) > 18)
        return false;
    for (const char *p = s; *p; p++)
        if (!isdigit((unsigned char)*p))
            return false;
    return true;
}

/* the rows to compare of one run: a workflow's per-name summary, or a job's steps; its title */
static json_t *run_rows(const struct settings *st, bool workflow, const char *id, const char *cluster, char *title,
                        size_t tsize, int *status)
{
    char q[256];
    snprintf(q, sizeof q, "q=%s&id=%s%s%s%s", workflow ? "workflow" : "job", id, workflow ? "&by=name" : "",
             cluster ? "&cluster=" : "", cluster ? cluster : "");
    json_t *reply = fetch(st, q, status);
    if (!reply)
        return NULL;
    json_t *rows;
    if (workflow) {
        snprintf(title, tsize, "workflow %s", id);
        rows = json_incref(json_object_get(reply, "step_names"));
    } else {
        const json_t *job = json_object_get(reply, "job");
        const char *name = json_string_value(json_object_get(job, "name"));
        const char *state = json_string_value(json_object_get(job, "state"));
        snprintf(title, tsize, "job %s \"%s\", %s", id, name ? name : "", state ? state : "?");
        rows = jsr_job_rows(job, time(NULL));
    }
    json_decref(reply);
    return rows;
}

/* --compare: A is OTHER, B the run named last (jobscreen --compare 12 15: 15 against 12) */
static int compare(const struct settings *st, bool workflow, const char *a, const char *b, const char *cluster, bool json)
{
    char ta[160], tb[160];
    int status;
    json_t *ra = run_rows(st, workflow, a, cluster, ta, sizeof ta, &status);
    if (!ra)
        return status;
    json_t *rb = run_rows(st, workflow, b, cluster, tb, sizeof tb, &status);
    if (!rb) {
        json_decref(ra);
        return status;
    }
    if (json) {
        json_t *o = json_pack("{s:s,s:O,s:s,s:O}", "a", ta, "a_rows", ra, "b", tb, "b_rows", rb);
        json_dumpf(o, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
        putchar('\n');
        json_decref(o);
    } else {
        jsr_compare(stdout, ta, ra, tb, rb, !workflow);
    }
    json_decref(ra);
    json_decref(rb);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("jobscreen: standard output");
        return EXIT_SERVER;
    }
    return 0;
}

/* The ids and the cluster named on the command line: true, or false after saying what is wrong. */
static bool args_valid(const char *id, const char *other, bool workflow, const char *cluster)
{
    if (other && !id_valid(other)) {
        fprintf(stderr, "jobscreen: --compare '%s' is not a %s id\n", other, workflow ? "workflow" : "job");
        return false;
    }
    if (!id_valid(id)) {
        if (strchr(id, '_'))
            fprintf(stderr, "jobscreen: '%s': give an array task by its own job id (sacct -j %s -o JobIDRaw)\n", id, id);
        else
            fprintf(stderr, "jobscreen: '%s' is not a %s id\n", id, workflow ? "workflow" : "job");
        return false;
    }
    if (cluster && !name_valid(cluster)) {
        fprintf(stderr, "jobscreen: '%s' is not a cluster name\n", cluster);
        return false;
    }
    return true;
}

/* The reply on stdout: as JSON (export: as the server gave it), or as the report of a job or a
 * workflow (names: its per-name table). 0, or -1 when stdout could not take it. */
static int print_reply(json_t *reply, json_t *names, bool workflow, bool json, bool export)
{
    if (export)
        json_dumpf(reply, stdout, JSON_INDENT(2));
    else if (json)
        json_dumpf(workflow ? reply : json_object_get(reply, "job"), stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
    else if (workflow) {
        jsr_workflow(stdout, reply, time(NULL));
        jsr_step_names(stdout, json_object_get(names, "step_names"));
    } else
        jsr_job(stdout, json_object_get(reply, "job"), time(NULL), isatty(STDOUT_FILENO) && !no_colour());
    if (json || export)
        putchar('\n');
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("jobscreen: standard output");
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = { { "json", no_argument, NULL, 'j' },
                                              { "cluster", required_argument, NULL, 'c' },
                                              { "url", required_argument, NULL, 'u' },
                                              { "workflow", required_argument, NULL, 'w' },
                                              { "compare", required_argument, NULL, 'C' },
                                              { "export", no_argument, NULL, 'E' },
                                              { "help", no_argument, NULL, 'h' },
                                              { "version", no_argument, NULL, 'V' },
                                              { NULL, 0, NULL, 0 } };
    bool json = false, export = false;
    const char *cluster = NULL, *url = NULL, *workflow = NULL, *other = NULL;
    int o;
    while ((o = getopt_long(argc, argv, "jc:u:w:hV", longopts, NULL)) != -1) {
        switch (o) {
        case 'j': json = true; break;
        case 'c': cluster = optarg; break;
        case 'u': url = optarg; break;
        case 'w': workflow = optarg; break;
        case 'C': other = optarg; break;
        case 'E': export = true; break;
        case 'h': return usage(stdout, 0);
        case 'V': printf("jobscreen %s\n", PACKAGE_VERSION); return 0;
        default: return usage(stderr, EXIT_USAGE);
        }
    }
    const char *id = workflow ? workflow : optind < argc ? argv[optind++] : NULL;
    if (!id || optind < argc)
        return usage(stderr, EXIT_USAGE);
    if (!args_valid(id, other, workflow != NULL, cluster))
        return EXIT_USAGE;

    struct settings st = { "", "" };
    const char *conf = getenv("JOBSCREEN_CLI_CONF");
    if (read_settings(&st, conf && *conf ? conf : JSR_DEFAULT_CONF, conf && *conf) < 0)
        return EXIT_USAGE;
    if (!url)
        url = getenv("JOBSCREEN_URL");
    if (url && *url)
        snprintf(st.url, sizeof st.url, "%s", url);
    if (!st.url[0]) {
        fprintf(stderr, "jobscreen: no server: set url in %s (or JOBSCREEN_URL, or --url)\n",
                conf && *conf ? conf : JSR_DEFAULT_CONF);
        return EXIT_USAGE;
    }

    char query[256];
    if (export) /* the JobLog shapes (docs/api.md, export) */
        snprintf(query, sizeof query, "q=export&%s=%s%s%s", workflow ? "workflow" : "job", id,
                 cluster ? "&cluster=" : "", cluster ? cluster : "");
    else /* a job with each step's insight and advice (the Insight section) */
        snprintf(query, sizeof query, "q=%s&id=%s%s%s%s", workflow ? "workflow" : "job", id, workflow ? "" : "&insight=yes",
                 cluster ? "&cluster=" : "", cluster ? cluster : "");
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        fprintf(stderr, "jobscreen: libcurl does not start\n");
        return EXIT_SERVER;
    }
    int status;
    if (other && export) {
        fprintf(stderr, "jobscreen: --compare and --export do not go together\n");
        return EXIT_USAGE;
    }
    if (other) {
        status = compare(&st, workflow != NULL, other, id, cluster, json);
        curl_global_cleanup();
        return status;
    }
    json_t *reply = fetch(&st, query, &status), *names = NULL;
    if (reply && workflow && !json && !export) {
        /* the per-name table: a second request (and credential) */
        char nq[sizeof query + 16];
        snprintf(nq, sizeof nq, "%s&by=name", query);
        names = fetch(&st, nq, &status);
        if (!names) {
            json_decref(reply);
            reply = NULL;
        }
    }
    if (reply && print_reply(reply, names, workflow != NULL, json, export) < 0)
        status = EXIT_SERVER;
    json_decref(reply);
    json_decref(names);
    curl_global_cleanup();
    return status;
}

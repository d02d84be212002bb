/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jobscreen-send's posts (send.h): parcels gathered back to back, compressed, posted as one
 * request, and only once the receiver answered that it stored them all, each parcel's files
 * removed from the node. One request (one credential, one round of the receiver's directory
 * fsyncs) takes many step-nodes when a backlog exists (docs/transport.md, "Posts"). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "profile_format.h"
#include "record_format.h"
#include "send.h"

static struct {
    int spoolfd;
    char *data;              /* the parcels, back to back */
    size_t len, cap, nfiles;
    struct done *done;       /* one per parcel, in order */
    size_t n, capn;
    int legacy;              /* the receiver refused a post of several parcels or compressed */
    jt_live_sent_fn *on_live;
} bt = { .spoolfd = -1 };

void batch_start(int spoolfd, jt_live_sent_fn *on_live)
{
    bt.spoolfd = spoolfd;
    bt.on_live = on_live;
}

void pass_waiting(struct pass *ps, time_t mtime)
{
    ps->waiting++;
    if (mtime && (!ps->oldest || mtime < ps->oldest))
        ps->oldest = mtime;
}

int batch_holds(uint32_t job_id)
{
    for (size_t i = 0; i < bt.n; i++)
        if (bt.done[i].job_id == job_id)
            return 1;
    return 0;
}

static void done_free(struct done *d)
{
    free(d->names);
    memset(d, 0, sizeof *d);
}

static void drop(size_t from)
{
    for (size_t i = from; i < bt.n; i++)
        done_free(&bt.done[i]);
    bt.n = bt.len = bt.nfiles = 0;
}

/* The receiver stored parcel d: its files leave the node (bundles, then the step record),
 * the job record's version goes to the ledger, a live snapshot is remembered. */
static void stored(const struct done *d, struct pass *ps)
{
    int jobfd = openat(bt.spoolfd, d->dirname, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    ps->parcels_sent++;
    log_info("sent %s", d->what);
    if (jobfd < 0)
        return;
    int profiles = 0, records = 0;
    for (size_t off = 0; off < d->names_len; off += strlen(d->names + off) + 1) {
        const char *name = d->names + off;
        int in_profiles = !strncmp(name, JS_PROFILES_DIR_NAME "/", strlen(JS_PROFILES_DIR_NAME "/"));
        if (!in_profiles && profiles) {
            /* the bundles' removal is durable before the step record goes */
            int pfd = openat(jobfd, JS_PROFILES_DIR_NAME, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (pfd >= 0) {
                fsync(pfd);
                close(pfd);
            }
            profiles = 0;
        }
        if (unlinkat(jobfd, name, 0) == 0) {
            ps->files_removed++;
            profiles |= in_profiles;
            records |= !in_profiles;
        }
    }
    if (profiles) {
        int pfd = openat(jobfd, JS_PROFILES_DIR_NAME, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (pfd >= 0) {
            fsync(pfd);
            close(pfd);
        }
    }
    if (records)
        fsync(jobfd);
    if (d->job_hex[0]) {
        char have[2 * JS_DIGEST_BYTES + 1];
        sent_digest(jobfd, have);
        if (strcmp(have, d->job_hex) != 0 && write_sent_digest(jobfd, d->job_hex) < 0)
            log_warn("%s/" SENT_LEDGER ": cannot write: %s (the job record will be sent again)", d->dirname, strerror(errno));
    }
    if (d->live_key[0] && bt.on_live)
        bt.on_live(d->live_key, d->live_digest, d->live_when);
    close(jobfd);
}

/* gzip of data into *out (malloc'd); 0, or -1 (then sent as it is). Level 1: the sender
 * runs on compute nodes, and JSON shrinks well at the cheapest level. */
static int gzip(const char *data, size_t len, char **out, size_t *olen)
{
    z_stream z = { 0 };
    if (len > UINT_MAX / 2 || deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    size_t cap = deflateBound(&z, (uLong)len);
    *out = malloc(cap);
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)len;
    z.next_out = (Bytef *)*out;
    z.avail_out = (uInt)cap;
    int r = *out ? deflate(&z, Z_FINISH) : Z_MEM_ERROR;
    *olen = cap - z.avail_out;
    deflateEnd(&z);
    if (r != Z_STREAM_END || *olen >= len) {
        free(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}

/* Post parcels [from, to) of the batch as one request. 0 stored, -1 with reason; *refused:
 * the receiver answered 400 or 415 (an older one, which takes one uncompressed parcel). */
static int post_range(size_t from, size_t to, char *reason, size_t rsize, int *refused)
{
    size_t off = bt.done[from].off, len = bt.done[to - 1].off + bt.done[to - 1].len - off, zlen = 0, files = 0;
    char *z = NULL, what[1200];
    for (size_t i = from; i < to; i++)
        files += bt.done[i].nfiles;
    int compress = o.compress && !bt.legacy && len >= 1024 && gzip(bt.data + off, len, &z, &zlen) == 0;
    if (to - from == 1)
        snprintf(what, sizeof what, "%s", bt.done[from].what);
    else
        snprintf(what, sizeof what, "a post of %zu parcels (%zu files, %zu bytes%s)", to - from, files, len, "");
    if (compress)
        snprintf(what + strlen(what) - 1, sizeof what - strlen(what) + 1, ", %zu gzip)", zlen);
    long code = 0;
    int rc = post(compress ? z : bt.data + off, compress ? zlen : len, compress, what, &code, reason, rsize);
    free(z);
    *refused = rc < 0 && (code == 400 || code == 415) && (to - from > 1 || compress);
    if (rc == 0 && to - from > 1)
        log_info("stored %s", what);
    return rc;
}

int batch_flush(struct pass *ps)
{
    char reason[1536];
    size_t i = 0;
    while (i < bt.n) {
        /* an older receiver takes one parcel per post, uncompressed */
        size_t to = bt.legacy ? i + 1 : bt.n;
        int refused = 0;
        if (post_range(i, to, reason, sizeof reason, &refused) == 0) {
            ps->posts++;
            for (; i < to; i++)
                stored(&bt.done[i], ps);
            continue;
        }
        if (refused && !bt.legacy) {
            log_warn("%s; an older receiver? From now on one parcel per post, uncompressed (restart the sender once "
                     "the receiver is upgraded)", reason);
            bt.legacy = 1;
            continue;
        }
        snprintf(ps->failure, sizeof ps->failure, "%s", reason);
        ps->sending = 0;
        for (; i < bt.n; i++)
            pass_waiting(ps, bt.done[i].mtime);
    }
    drop(0);
    /* a backlog's large post does not stay in a compute node's memory afterwards */
    if (bt.cap > (1u << 20)) {
        free(bt.data);
        bt.data = NULL;
        bt.cap = 0;
    }
    return ps->sending ? 0 : -1;
}

int batch_add(const struct jt_buf *b, struct done *d, size_t nfiles, struct pass *ps)
{
    if (!ps->sending) {
        pass_waiting(ps, d->mtime);
        done_free(d);
        return 0;
    }
    /* a post stays within --parcel-max (but for a single parcel) and the receiver's bounds */
    if (bt.n && ((long long)(bt.len + b->len) > o.parcel_max || bt.n + 1 > (size_t)o.post_parcels ||
                 bt.nfiles + nfiles > JT_POST_MAX_FILES) && batch_flush(ps) < 0) {
        pass_waiting(ps, d->mtime);
        done_free(d);
        return -1;
    }
    if (bt.len + b->len > bt.cap) {
        size_t cap = bt.cap ? bt.cap : 65536;
        while (cap < bt.len + b->len)
            cap *= 2;
        char *nd = realloc(bt.data, cap);
        if (!nd)
            goto nomem;
        bt.data = nd;
        bt.cap = cap;
    }
    if (bt.n == bt.capn) {
        size_t c = bt.capn ? bt.capn * 2 : 64;
        struct done *nd = realloc(bt.done, c * sizeof *nd);
        if (!nd)
            goto nomem;
        bt.done = nd;
        bt.capn = c;
    }
    memcpy(bt.data + bt.len, b->data, b->len);
    d->off = bt.len;
    d->len = b->len;
    d->nfiles = nfiles;
    bt.done[bt.n++] = *d;
    bt.len += b->len;
    bt.nfiles += nfiles;
    memset(d, 0, sizeof *d);
    /* a batch of one is posted at once when it alone fills a post */
    if ((long long)bt.len >= o.parcel_max || bt.n >= (size_t)o.post_parcels)
        return batch_flush(ps);
    return 0;
nomem:
    log_error("%s: out of memory for a post", d->what);
    done_free(d);
    return batch_flush(ps) < 0 ? -1 : 0;
}

void batch_end(void)
{
    drop(0);
    free(bt.data);
    free(bt.done);
    memset(&bt, 0, sizeof bt);
    bt.spoolfd = -1;
}

int done_add_name(struct done *d, const char *name)
{
    size_t l = strlen(name) + 1;
    char *n = realloc(d->names, d->names_len + l);
    if (!n)
        return -1;
    memcpy(n + d->names_len, name, l);
    d->names = n;
    d->names_len += l;
    return 0;
}

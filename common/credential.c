/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Munge credentials over a body: munge + SHA-256 (credential.h). */
#include "config.h"

#include "credential.h"

#include <munge.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int js_sha256(const void *data, size_t len, unsigned char out[JS_DIGEST_BYTES])
{
    unsigned int n = 0;
    return EVP_Digest(data, len, out, &n, EVP_sha256(), NULL) == 1 && n == JS_DIGEST_BYTES ? 0 : -1;
}

struct js_sha256_stream *js_sha256_open(void)
{
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    if (md && EVP_DigestInit_ex(md, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(md);
        md = NULL;
    }
    return (struct js_sha256_stream *)md;
}

int js_sha256_add(struct js_sha256_stream *s, const void *data, size_t len)
{
    return EVP_DigestUpdate((EVP_MD_CTX *)s, data, len) == 1 ? 0 : -1;
}

int js_sha256_close(struct js_sha256_stream *s, unsigned char out[JS_DIGEST_BYTES])
{
    unsigned int n = 0;
    int rc = !out || (EVP_DigestFinal_ex((EVP_MD_CTX *)s, out, &n) == 1 && n == JS_DIGEST_BYTES) ? 0 : -1;
    EVP_MD_CTX_free((EVP_MD_CTX *)s);
    return rc;
}

static munge_ctx_t context(const char *socket, char *reason, size_t rsize)
{
    munge_ctx_t ctx = munge_ctx_create();
    if (!ctx) {
        snprintf(reason, rsize, "munge: out of memory");
        return NULL;
    }
    if (socket && *socket && munge_ctx_set(ctx, MUNGE_OPT_SOCKET, socket) != EMUNGE_SUCCESS) {
        snprintf(reason, rsize, "munge: socket %s: %s", socket, munge_ctx_strerror(ctx));
        munge_ctx_destroy(ctx);
        return NULL;
    }
    return ctx;
}

int js_credential_make(const char *socket, const void *body, size_t len, char **cred, char *reason, size_t rsize)
{
    unsigned char digest[JS_DIGEST_BYTES];
    *cred = NULL;
    if (js_sha256(body, len, digest) < 0) {
        snprintf(reason, rsize, "SHA-256 failed");
        return -1;
    }
    munge_ctx_t ctx = context(socket, reason, rsize);
    if (!ctx)
        return -1;
    munge_err_t e = munge_encode(cred, ctx, digest, sizeof digest);
    if (e != EMUNGE_SUCCESS)
        snprintf(reason, rsize, "munge_encode: %s", munge_ctx_strerror(ctx) ? munge_ctx_strerror(ctx) : munge_strerror(e));
    munge_ctx_destroy(ctx);
    return e == EMUNGE_SUCCESS ? 0 : -1;
}

int js_credential_decode(const char *socket, const char *cred, uid_t want_uid, uid_t *uid,
                         unsigned char digest[JS_DIGEST_BYTES], char *reason, size_t rsize)
{
    *uid = (uid_t)-1;
    if (!cred || !*cred) {
        snprintf(reason, rsize, "no credential (header " JS_CREDENTIAL_HEADER ")");
        return -1;
    }
    munge_ctx_t ctx = context(socket, reason, rsize);
    if (!ctx)
        return -1;
    void *payload = NULL;
    int plen = 0;
    gid_t gid;
    munge_err_t e = munge_decode(cred, ctx, &payload, &plen, uid, &gid);
    int rc = -1;
    if (e != EMUNGE_SUCCESS) {
        /* munged names the cause: replayed, expired, invalid, ... */
        snprintf(reason, rsize, "credential refused by munge: %s", munge_ctx_strerror(ctx) ? munge_ctx_strerror(ctx) : munge_strerror(e));
        if (e != EMUNGE_CRED_REPLAYED && e != EMUNGE_CRED_EXPIRED && e != EMUNGE_CRED_REWOUND)
            *uid = (uid_t)-1;
    } else if (want_uid != JS_ANY_UID && *uid != want_uid)
        snprintf(reason, rsize, "credential of uid %u, not of uid %u", (unsigned)*uid, (unsigned)want_uid);
    else if (plen != JS_DIGEST_BYTES)
        snprintf(reason, rsize, "the credential's payload is %d bytes, not a SHA-256", plen);
    else {
        memcpy(digest, payload, JS_DIGEST_BYTES);
        rc = 0;
    }
    free(payload);
    munge_ctx_destroy(ctx);
    return rc;
}

int js_credential_matches(const unsigned char want[JS_DIGEST_BYTES], const unsigned char got[JS_DIGEST_BYTES],
                          char *reason, size_t rsize)
{
    if (memcmp(want, got, JS_DIGEST_BYTES) == 0)
        return 0;
    snprintf(reason, rsize, "the body does not match the credential's SHA-256 (altered after the credential was made)");
    return -1;
}

int js_credential_check(const char *socket, const char *cred, const void *body, size_t len, uid_t want_uid, uid_t *uid,
                        char *reason, size_t rsize)
{
    unsigned char want[JS_DIGEST_BYTES], got[JS_DIGEST_BYTES];
    if (js_credential_decode(socket, cred, want_uid, uid, want, reason, rsize) < 0)
        return -1;
    if (js_sha256(body, len, got) < 0) {
        snprintf(reason, rsize, "SHA-256 failed");
        return -1;
    }
    return js_credential_matches(want, got, reason, rsize);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Munge credentials over a request's body: the credential's payload is the SHA-256 of the body,
 * so that it vouches for that body only. Made by the node sender as root for its parcels
 * (docs/transport.md, "Trust") and by the terminal report as the calling user for its request
 * (docs/cli.md); checked by jobscreen-receive and jobscreen.cgi. munged refuses a credential
 * decoded twice (replay) or too old (its TTL, 300 s by default). */
#ifndef JS_CREDENTIAL_H
#define JS_CREDENTIAL_H

#include <stddef.h>
#include <sys/types.h>

#define JS_DIGEST_BYTES 32
#define JS_CREDENTIAL_HEADER "X-Jobscreen-Credential"
/* The same header as a CGI sees it. */
#define JS_CREDENTIAL_ENV "HTTP_X_JOBSCREEN_CREDENTIAL"
/* What the terminal report's credential covers (docs/cli.md): this prefix, then the request's
 * query string exactly as sent. */
#define JS_CLI_CREDENTIAL_PREFIX "jobscreen-cli 1\n"
/* want_uid of js_credential_check: any uid */
#define JS_ANY_UID ((uid_t)-1)

/* SHA-256 of data. 0, or -1. */
int js_sha256(const void *data, size_t len, unsigned char out[JS_DIGEST_BYTES]);

/* SHA-256 of data that comes in pieces: js_sha256_open (NULL: out of memory), js_sha256_add
 * per piece (0, or -1), js_sha256_close (0 with out set, or -1; out NULL: discard; frees). */
struct js_sha256_stream;
struct js_sha256_stream *js_sha256_open(void);
int js_sha256_add(struct js_sha256_stream *s, const void *data, size_t len);
int js_sha256_close(struct js_sha256_stream *s, unsigned char out[JS_DIGEST_BYTES]);

/* A credential over body from munged at socket (NULL: munge's default). *cred malloc'd.
 * 0, or -1 with the reason. */
int js_credential_make(const char *socket, const void *body, size_t len, char **cred, char *reason, size_t rsize);

/* Decode cred before the body is read: munged decodes it (refusing replays and expired ones),
 * its uid must be want_uid (JS_ANY_UID: any) and its payload a SHA-256, put in digest for
 * js_credential_matches once the body is in. 0, or -1 with the reason; *uid as below. */
int js_credential_decode(const char *socket, const char *cred, uid_t want_uid, uid_t *uid,
                         unsigned char digest[JS_DIGEST_BYTES], char *reason, size_t rsize);
/* The SHA-256 of the body that was read (got) against the decoded credential's (want).
 * 0, or -1 with the reason. */
int js_credential_matches(const unsigned char want[JS_DIGEST_BYTES], const unsigned char got[JS_DIGEST_BYTES],
                          char *reason, size_t rsize);

/* Check cred against body (js_credential_decode, then js_credential_matches): munged decodes it (refusing replays and expired ones), its
 * uid must be want_uid (JS_ANY_UID: any) and its payload the SHA-256 of body. 0, or -1 with
 * the reason; *uid is the credential's uid when munged decoded it (else (uid_t)-1). */
int js_credential_check(const char *socket, const char *cred, const void *body, size_t len, uid_t want_uid, uid_t *uid,
                        char *reason, size_t rsize);

#endif

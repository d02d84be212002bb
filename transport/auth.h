/* A parcel's credential: a munge credential made by root on the node whose payload is the
 * SHA-256 of the parcel's body (docs/transport.md, "Trust"). */
#ifndef JT_AUTH_H
#define JT_AUTH_H

#include <stddef.h>
#include <sys/types.h>

#define JT_DIGEST_BYTES 32
#define JT_CREDENTIAL_HEADER "X-Jobscreen-Credential"
/* The same header as a CGI sees it. */
#define JT_CREDENTIAL_ENV "HTTP_X_JOBSCREEN_CREDENTIAL"

/* SHA-256 of data. 0, or -1. */
int jt_sha256(const void *data, size_t len, unsigned char out[JT_DIGEST_BYTES]);

/* A credential over body from munged at socket (NULL: munge's default). *cred malloc'd.
 * 0, or -1 with the reason. */
int jt_credential_make(const char *socket, const void *body, size_t len, char **cred, char *reason, size_t rsize);

/* Check cred against body: munged decodes it (refusing replays and expired ones), its
 * uid must be want_uid and its payload the SHA-256 of body. 0, or -1 with the reason;
 * *uid is the credential's uid when munged decoded it (else (uid_t)-1). */
int jt_credential_check(const char *socket, const char *cred, const void *body, size_t len, uid_t want_uid, uid_t *uid,
                        char *reason, size_t rsize);

#endif

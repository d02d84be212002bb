/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Safe access to the spool: everything is opened relative to a directory descriptor with
 * O_NOFOLLOW, checked for type, owner and size before a byte is parsed. */
#ifndef PI_INGEST_SPOOL_H
#define PI_INGEST_SPOOL_H

#include <stddef.h>
#include <sys/types.h>

#define PI_READ_OK 0
#define PI_READ_REFUSED (-1)  /* reason set: quarantine it */
#define PI_READ_GONE (-2)     /* vanished meanwhile (another daemon): skip */

/* Read name in dirfd: a regular file, not a link, owned by want_uid (described as owner in
 * the reason), at most max bytes.
 * On success *buf (malloc'd) and *len. */
int pi_read_file(int dirfd, const char *name, uid_t want_uid, const char *owner, long long max, char **buf,
                 size_t *len, char *reason, size_t size);
/* Open a subdirectory without following links: fd, or -1 (errno set). */
int pi_open_dir(int dirfd, const char *name);
/* mkdir -p of an absolute path (mode 0700 for what it makes). */
int pi_mkdirs(const char *path);
/* Move name (in dirfd) to DIR/job.<id>/name and write DIR/job.<id>/name.reason; when
 * rename fails across file systems, copy then unlink.  0, or -1 logged. */
int pi_quarantine_move(int dirfd, const char *name, const char *qdir, long long job, const char *reason);
/* Remove what was quarantined more than days ago (0: nothing), with the job directories it
 * leaves empty; logs how much went. Returns the files removed. */
long pi_quarantine_expire(const char *qdir, int days);
/* Where pi_quarantine_move puts it. */
void pi_quarantine_path(char *out, size_t size, const char *qdir, long long job, const char *name);
/* Remove name in dirfd, or move it to ARCHIVE/job.<id>/[sub/]name when archive is set. */
int pi_dispose(int dirfd, const char *name, const char *archive, long long job, const char *sub);

#endif

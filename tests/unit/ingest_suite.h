/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the unit tests of profile_ingest's validation share (ingest_suite.c): the files of the
 * data-driven suite tests/ingest-suites, placeholders filled in, and the suite's step whose
 * profiles are of versions 1 and 2. */
#ifndef JS_TEST_INGEST_SUITE_H
#define JS_TEST_INGEST_SUITE_H

#include "validate.h"

#define ENDS "valid/process-ends-v1-and-v2/spool/job.110/"

/* A suite file with @UID@ and @GID@ as 1000 and @USER@ as alice, parsed (the test fails when
 * it cannot be). */
json_t *suite_json(const char *rel);
/* The step of the suite case whose profiles are of both versions, with none added yet. */
void ends_step(struct pi_step *st);
/* The suite's profile name added to st: pi_profile_add's result, its reason in reason. */
int add_profile(struct pi_step *st, const struct pi_conf *conf, const char *name, char *reason);

#endif

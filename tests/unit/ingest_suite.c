/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The suite files and steps the unit tests of profile_ingest's validation share
 * (ingest_suite.h). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ingest_suite.h"

json_t *suite_json(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/ingest-suites/%s", JS_TOP_SRCDIR, rel);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[1 << 20], out[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *o = out;
    for (char *p = buf; *p;) {
        if (!strncmp(p, "@UID@", 5) || !strncmp(p, "@GID@", 5)) {
            o += sprintf(o, "1000");
            p += 5;
        } else if (!strncmp(p, "@USER@", 6)) {
            o += sprintf(o, "alice");
            p += 6;
        } else {
            *o++ = *p++;
        }
    }
    char reason[PI_REASON_MAX];
    json_t *j = pi_json_parse(out, (size_t)(o - out), reason, sizeof reason);
    assert_non_null(j);
    return j;
}

void ends_step(struct pi_step *st)
{
    pi_step_init(st, suite_json(ENDS "job.json"), suite_json(ENDS "step.0.node1.json"), "default");
}

int add_profile(struct pi_step *st, const struct pi_conf *conf, const char *name, char *reason)
{
    json_t *p = suite_json(name);
    int rc = pi_profile_add(st, conf, p, reason, PI_REASON_MAX);
    json_decref(p);
    return rc;
}

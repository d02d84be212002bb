/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The terminal report's warnings from a job's file and scheduler edges together (docs/api.md,
 * job "warnings"; docs/dependencies.md, "Warnings"): a read of a file another job was still
 * writing, and a file edge that only luck ordered. The sentences are the server's; written
 * with their control characters replaced, wrapped to the terminal.
 */
#include "config.h"

#include "report.h"

#include <string.h>

void jsr_warnings(FILE *out, const json_t *warnings)
{
    const json_t *w;
    size_t i;
    if (json_array_size(warnings) == 0)
        return;
    fprintf(out, "\nWarnings (what the files and the scheduler's dependencies tell together)\n");
    json_array_foreach(warnings, i, w) {
        const char *kind = json_string_value(json_object_get(w, "kind"));
        const char *msg = json_string_value(json_object_get(w, "message"));
        char text[2400];
        jsr_clean(text, sizeof text, msg ? msg : "", 590, 1);
        fprintf(out, "  %-8s ", kind && !strcmp(kind, "read_while_written") ? "RACE" : "LUCK");
        jsr_wrap(out, 11, 11, text);
    }
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sampler's node description, readings and slices as JSON lines (gpu_json.c). */
#ifndef JS_GPU_JSON_H
#define JS_GPU_JSON_H

#include <stdio.h>

#include "jsgpu.h"

/* s as a JSON string: quotes, backslashes and controls escaped */
void jsg_json_str(FILE *f, const char *s);
void jsg_json_node(FILE *f, const struct jsg_gpus *g, const struct jsg_powercap *pc,
                   int32_t seconds, const char *selection);
void jsg_json_tick(FILE *f, const struct jsg_gpus *g, const struct jsg_tick *t);
void jsg_json_slice(FILE *f, const struct jsg_gpus *g, const struct jsg_slice *s, int partial);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The step endpoint's GPUs (docs/api.md, step "gpus"; docs/gpu.md): per node and GPU its
 * figures over the step and the step's processes on it ("processes": pid, rank, command, peak
 * memory, utilization), and with gpu_series=1 its series (utilization, memory, power,
 * energy per slice, as columns), each under its GPU's object.
 */
#include "config.h"

#include "jsweb.h"

#include <string.h>

static int same_gpu(const json_t *a, const json_t *b)
{
    return json_equal(json_object_get(a, "node"), json_object_get(b, "node")) &&
           json_equal(json_object_get(a, "uuid"), json_object_get(b, "uuid"));
}

/* Each GPU of gpus gets as its member `name` what rows hold for it: the member `field` of its
 * one row (none: null), or with field NULL all its rows, without their node and uuid (none: []). */
static void attach(json_t *gpus, json_t *rows, const char *name, const char *field)
{
    size_t i, k;
    json_t *g, *r;
    json_array_foreach(gpus, i, g) {
        json_t *got = field ? json_null() : json_array();
        json_array_foreach(rows, k, r) {
            if (!same_gpu(g, r))
                continue;
            if (field != NULL) {
                json_t *v = json_object_get(r, field);
                json_decref(got);
                got = json_incref(v ? v : json_null());
                continue;
            }
            json_t *p = json_deep_copy(r);
            json_object_del(p, "node");
            json_object_del(p, "uuid");
            json_array_append_new(got, p);
        }
        json_object_set_new(g, name, got);
    }
}

int jsw_step_gpus(jsw_db *db, const struct jsw_request *req, json_t *step, int nparams, const char *const *params,
                  char *err, size_t errlen)
{
    const char *want = jsw_param(req, "gpu_series");
    if (want != NULL && strcmp(want, "1") != 0 && strcmp(want, "0") != 0) {
        snprintf(err, errlen, "parameter 'gpu_series': 0 or 1");
        return -2;
    }
    json_t *gpus = jsw_db_rows(db, "step_gpus", nparams, params, err, errlen);
    if (gpus == NULL)
        return -1;
    json_t *procs = json_array_size(gpus) ? jsw_db_rows(db, "step_gpu_processes", nparams, params, err, errlen)
                                          : json_array();
    if (procs == NULL) {
        json_decref(gpus);
        return -1;
    }
    attach(gpus, procs, "processes", NULL);
    json_decref(procs);
    if (want != NULL && strcmp(want, "1") == 0) {
        json_t *series = jsw_db_rows(db, "step_gpu_series", nparams, params, err, errlen);
        if (series == NULL) {
            json_decref(gpus);
            return -1;
        }
        attach(gpus, series, "series", "series");
        json_decref(series);
    }
    json_object_set_new(step, "gpus", gpus);
    return 0;
}

void jsw_export_step_gpus(json_t *o, json_t *r)
{
    static const char *const keys[] = { "gpus", "gpu_energy_j", "cpu_energy_j", "energy_j", "gpu_note" };
    json_t *more = json_object();
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        json_t *v = json_object_get(r, keys[i]);
        json_object_set(more, keys[i], v ? v : json_null());
    }
    json_object_set_new(o, "jobscreen", more);
}

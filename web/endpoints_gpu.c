/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The step endpoint's GPUs (docs/api.md, step "gpus"; docs/gpu.md): per node and GPU its
 * figures over the step, and with gpu_series=1 its slices (utilization, memory, power,
 * energy), each GPU's series under its own object.
 */
#include "config.h"

#include "jsweb.h"

#include <string.h>

int jsw_step_gpus(jsw_db *db, const struct jsw_request *req, json_t *step, int nparams, const char *const *params,
                  char *err, size_t errlen)
{
    json_t *gpus = jsw_db_rows(db, "step_gpus", nparams, params, err, errlen);
    if (gpus == NULL)
        return -1;
    const char *want = jsw_param(req, "gpu_series");
    if (want != NULL && strcmp(want, "1") != 0 && strcmp(want, "0") != 0) {
        json_decref(gpus);
        snprintf(err, errlen, "parameter 'gpu_series': 0 or 1");
        return -2;
    }
    if (want != NULL && strcmp(want, "1") == 0) {
        json_t *series = jsw_db_rows(db, "step_gpu_series", nparams, params, err, errlen);
        if (series == NULL) {
            json_decref(gpus);
            return -1;
        }
        size_t i, k;
        json_t *g, *s;
        json_array_foreach(gpus, i, g) {
            json_t *slices = NULL;
            json_array_foreach(series, k, s)
                if (json_equal(json_object_get(s, "node"), json_object_get(g, "node")) &&
                    json_equal(json_object_get(s, "uuid"), json_object_get(g, "uuid")))
                    slices = json_object_get(s, "slices");
            json_object_set_new(g, "slices", slices ? json_incref(slices) : json_array());
        }
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

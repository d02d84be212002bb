#include "config.h"

#include "profile_format.h"

#include <string.h>

const struct js_metric_def js_profile_metrics[JS_M_COUNT] = {
#define JS_X(id, name, unit, desc) [JS_M_##id] = { name, unit, desc },
    JS_PROFILE_METRICS(JS_X)
#undef JS_X
};

const struct js_metric_def js_profile_slice_cols[JS_SLICE_COLS] = {
#define JS_X(id, name, unit, desc) [JS_M_##id] = { name, unit, desc },
    JS_PROFILE_METRICS(JS_X)
#undef JS_X
#define JS_X(id, name, unit, desc) [JS_M_COUNT + JS_KIO_##id] = { "kernel_" name, unit, desc " (in the slice)" },
    JS_PROFILE_KERNEL_IO_FIELDS(JS_X)
#undef JS_X
};

const char *const js_profile_coll_kinds[JS_COLL_COUNT] = {
#define JS_X(id, name) [JS_COLL_##id] = name,
    JS_PROFILE_COLL_KINDS(JS_X)
#undef JS_X
};

int js_profile_metric_index(const char *name)
{
    for (int i = 0; i < JS_M_COUNT; i++)
        if (strcmp(js_profile_metrics[i].name, name) == 0)
            return i;
    return -1;
}

int js_profile_coll_kind_index(const char *name)
{
    for (int i = 0; i < JS_COLL_COUNT; i++)
        if (strcmp(js_profile_coll_kinds[i], name) == 0)
            return i;
    return -1;
}

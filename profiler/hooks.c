/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The modules above the core, as the core reaches them (struct js_module, js.h): fixed at build
 * time, in the order their hooks run. The core calls nothing of files.c, async.c or
 * mpi_segments.c but through this table, so that no two of the profiler's files call each other
 * both ways (docs/profiler.md, "Files").
 */
#include "config.h"

#include "js.h"
#include "modules.h"

const struct js_module *const js_modules[] = {
    &js_async_module, /* at the end, before the files: the rings' last counts go to their files */
    &js_seg_module,
    &js_files_module,
};
const unsigned js_nmodules = sizeof js_modules / sizeof js_modules[0];

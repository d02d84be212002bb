/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The modules above the core, as the core reaches them (struct js_module, js.h): fixed at build
 * time, in the order their hooks run, and handed to the core when the image starts. The core
 * names nothing of files.c, async.c or mpi_segments.c, which call the core: this file, above
 * both, is the only one that names them all, so that no loop of calls joins the profiler's
 * files (docs/profiler.md, "Files"; tests/unit/circles.sh).
 */
#include "config.h"

#include "js.h"
#include "modules.h"

static const struct js_module *const js_modules[] = {
    &js_async_module, /* at the end, before the files: the rings' last counts go to their files */
    &js_seg_module,
    &js_files_module,
};

/* glibc calls constructors with main's arguments */
__attribute__((constructor)) static void js_init(int argc, char **argv)
{
    js_core_start(js_modules, sizeof js_modules / sizeof js_modules[0], argc, argv);
}

__attribute__((destructor)) static void js_fini(void)
{
    js_core_stop();
}

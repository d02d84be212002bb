/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Software trees (docs/profiler.md, "Software trees"): which directory a file's opens count in
 * instead of an entry of their own in the file list (files.c). String work on the path only: no
 * system call, safe in a signal handler.
 */
#include "config.h"

#include "js.h"
#include "modules.h"

#include <string.h>

static int is_component(const char *c, size_t n, const char *name)
{
    size_t l = strlen(name);
    return n == l && memcmp(c, name, l) == 0;
}

/* Names an interpreter or a loader reads as code (modules, bytecode, archives of classes):
 * opened read-only, such a file is code, counted in its directory's tree, not data. */
static int code_name(const char *base, size_t bl)
{
    static const char *const ext[] = { "py", "pyc", "pyo", "pm", "rb", "jar", "class", "R", "r", "jl", "lua",
                                       "luac", "js", "mjs", "cjs", "tcl" };
    const char *dot = memrchr(base, '.', bl);
    if (!dot || dot == base)
        return 0;
    size_t el = bl - (size_t)(dot + 1 - base);
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
        if (is_component(dot + 1, el, ext[i]))
            return 1;
    return 0;
}

/* The software tree a file belongs to: the length of the prefix of p (absolute, clean, len
 * bytes) that names it, or 0 for a file of its own. Trees: the system directories (/usr/X,
 * /opt/X, /lib*, /bin, /sbin, /etc, /snap, /nix/X), Python's lib/pythonX.Y, package directories
 * (site-packages, dist-packages, node_modules, __pycache__) wherever they are, the directory
 * of a shared library (name.so, name.so.N) and, opened read-only (ro), of code (code_name).
 * docs/profiler.md, "Software trees". */
size_t js_tree_of(const char *p, size_t len, int ro)
{
    const char *c = p + 1, *end = p + len;
    const char *slash = memchr(c, '/', (size_t)(end - c));
    if (!slash)
        return 0; /* a file in / */
    size_t n = (size_t)(slash - c);
    if (is_component(c, n, "usr") || is_component(c, n, "opt") || is_component(c, n, "nix")) {
        const char *two = memchr(slash + 1, '/', (size_t)(end - slash - 1));
        return two ? (size_t)(two - p) : 0;
    }
    if (is_component(c, n, "lib") || is_component(c, n, "lib64") || is_component(c, n, "lib32") ||
        is_component(c, n, "libx32") || is_component(c, n, "bin") || is_component(c, n, "sbin") ||
        is_component(c, n, "etc") || is_component(c, n, "snap"))
        return (size_t)(slash - p);
    /* package directories anywhere, and lib/pythonX.Y */
    const char *prev = NULL;
    size_t prevn = 0;
    for (const char *q = c; q < end;) {
        const char *e = memchr(q, '/', (size_t)(end - q));
        if (!e)
            break; /* the last component is the file's own name */
        size_t m = (size_t)(e - q);
        if (is_component(q, m, "site-packages") || is_component(q, m, "dist-packages") ||
            is_component(q, m, "node_modules") || is_component(q, m, "__pycache__") ||
            (prev && is_component(prev, prevn, "lib") && m >= 9 && memcmp(q, "python", 6) == 0 &&
             (q[6] == '2' || q[6] == '3') && q[7] == '.'))
            return (size_t)(e - p);
        prev = q;
        prevn = m;
        q = e + 1;
    }
    /* a shared library: its directory */
    const char *base = (const char *)memrchr(p, '/', len) + 1;
    size_t bl = (size_t)(end - base);
    if ((bl > 3 && memcmp(end - 3, ".so", 3) == 0) || memmem(base, bl, ".so.", 4) || (ro && code_name(base, bl)))
        return base - 1 > p ? (size_t)(base - 1 - p) : 0;
    return 0;
}

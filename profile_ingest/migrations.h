/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The schema's files of sql/, embedded at build time (embed-sql; sql/objects.am). */
#ifndef PI_MIGRATIONS_H
#define PI_MIGRATIONS_H

struct pi_migration {
    int version;       /* 0 = the bootstrap, run every time; -1 ends the table */
    const char *name;  /* a migration's NNN_name; a definition's path under sql/ */
    const char *sql;
};

/* The numbered migrations, in order: tables, indexes and data, each applied once. */
extern const struct pi_migration pi_migrations[];
/* The definitions, in order (version 0; -1 ends): migrate/before.sql, which drops the views,
 * functions and types, those created anew, and migrate/after.sql. */
extern const struct pi_migration pi_definitions[];

#endif

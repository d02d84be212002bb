/* The schema migrations of sql/, embedded at build time (embed-sql). */
#ifndef PI_MIGRATIONS_H
#define PI_MIGRATIONS_H

struct pi_migration {
    int version;       /* 0 = the bootstrap, run every time; -1 ends the table */
    const char *name;
    const char *sql;
};

extern const struct pi_migration pi_migrations[];

#endif

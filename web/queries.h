/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The named SQL queries of queries.sql, compiled in. */
#ifndef JSWEB_QUERIES_H
#define JSWEB_QUERIES_H
struct jsw_query {
    const char *name;
    const char *text;
};
extern const struct jsw_query jsw_queries[];
#endif

# SPDX-License-Identifier: GPL-2.0-or-later
# Turn queries.sql ("-- name: NAME" starts a query) into a C table of named query strings,
# so that the SQL lives in a .sql file and the CGI carries it compiled in.
BEGIN { n = 0; print "/* generated from queries.sql by sql2c.awk: do not edit */"; print "#include <stddef.h>"; print "#include \"queries.h\"" ; print "const struct jsw_query jsw_queries[] = {" }
/^-- name: / { if (n) print "  },"; printf "  { \"%s\",\n", $3; n++; next }
/^[ \t]*--/ { next }
/^[ \t]*$/ { next }
n { line = $0; gsub(/\\/, "\\\\", line); gsub(/"/, "\\\"", line); printf "    \"%s\\n\"\n", line }
END { if (n) print "  },"; print "  { NULL, NULL }"; print "};" }

-- The SQL of jobscreen.cgi, one named query per "-- name:" line. Parameters: $1 the viewer's
-- user name, $2 whether the viewer is an admin; the rest per query (see endpoints.c).
-- name: placeholder
SELECT 1 AS one

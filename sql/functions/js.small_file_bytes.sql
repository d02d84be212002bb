-- SPDX-License-Identifier: GPL-2.0-or-later
-- The bound below which a file counts as small (the small-file storm of the reports).
CREATE FUNCTION js.small_file_bytes() RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT 65536::bigint $$;
COMMENT ON FUNCTION js.small_file_bytes() IS 'a file a step moved fewer bytes of than this (read + written, per node) is a small file';

-- SPDX-License-Identifier: GPL-2.0-or-later
-- What the kernel counted beyond what the wrappers saw (raw system calls, static helpers, stdio
-- buffers filled ahead, a path not wrapped): NULL when the kernel's count is unknown.
CREATE FUNCTION js_data.unattributed(p_kernel bigint, p_seen bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$ SELECT greatest(p_kernel - p_seen, 0) $$;
COMMENT ON FUNCTION js_data.unattributed(bigint, bigint) IS 'kernel count minus the wrappers'' count, at least 0; NULL when the kernel count is unknown';

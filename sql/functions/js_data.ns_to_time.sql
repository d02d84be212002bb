-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE FUNCTION js_data.ns_to_time(ns bigint) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE AS $$ SELECT to_timestamp(ns / 1000000000.0) $$;
COMMENT ON FUNCTION js_data.ns_to_time(bigint) IS 'nanoseconds since the epoch (the record and profile formats) to timestamptz (microseconds)';

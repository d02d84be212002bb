-- SPDX-License-Identifier: GPL-2.0-or-later
-- Partitions of the series tables, as before for the per-slice tables.
CREATE FUNCTION js_data.ensure_slice_partitions(first bigint, last bigint) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    w bigint := js_data.slice_partition_width();
    p bigint;
    made integer := 0;
    t text;
BEGIN
    IF last < first OR last - first > 100 * w THEN
        RAISE EXCEPTION 'slice range % .. % is not plausible', first, last;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('jobscreen partitions'));
    p := first - (((first % w) + w) % w);
    WHILE p <= last LOOP
        FOREACH t IN ARRAY ARRAY['series_step_node', 'series_step', 'series_node', 'series_cluster'] LOOP
            IF to_regclass(format('js_data.%I', t || '_p' || replace(p::text, '-', 'm'))) IS NULL THEN
                EXECUTE format('CREATE TABLE js_data.%I PARTITION OF js_data.%I FOR VALUES FROM (%s) TO (%s)',
                               t || '_p' || replace(p::text, '-', 'm'), t, p, p + w);
                made := made + 1;
            END IF;
        END LOOP;
        p := p + w;
    END LOOP;
    RETURN made;
END $$;
COMMENT ON FUNCTION js_data.ensure_slice_partitions(bigint, bigint) IS 'create the missing partitions (named TABLE_p<first slice>) of the per-slice tables for a slice range';

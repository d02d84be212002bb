-- SPDX-License-Identifier: GPL-2.0-or-later
-- Statement triggers with transition tables, made in one place for the functions that keep data
-- derived from several tables in the writing transaction (js_data.replies_note_change,
-- js_data.job_totals_note): TABLE_SUFFIX_insert, _update and _delete on each js_data table named,
-- each with the transition tables its event has (new_rows, old_rows), less the events skipped
-- ('TABLE.EVENT', e.g. 'jobs.UPDATE'). Called by those functions' files on every migrate, after
-- sql/migrate/before.sql dropped the functions and with them their triggers.
CREATE FUNCTION js_data.create_statement_triggers(p_function text, p_suffix text, p_tables text[],
                                                  p_skip text[], p_comment text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    v_table text;
    v_event text;
    v_name text;
BEGIN
    FOREACH v_table IN ARRAY p_tables LOOP
        FOREACH v_event IN ARRAY ARRAY['INSERT', 'UPDATE', 'DELETE'] LOOP
            CONTINUE WHEN v_table || '.' || v_event = ANY (p_skip);
            v_name := v_table || '_' || p_suffix || '_' || lower(v_event);
            EXECUTE format('CREATE TRIGGER %I AFTER %s ON js_data.%I REFERENCING %s FOR EACH STATEMENT '
                           'EXECUTE FUNCTION %s()',
                           v_name, v_event, v_table,
                           CASE v_event WHEN 'INSERT' THEN 'NEW TABLE AS new_rows'
                                        WHEN 'UPDATE' THEN 'OLD TABLE AS old_rows NEW TABLE AS new_rows'
                                        ELSE 'OLD TABLE AS old_rows' END,
                           p_function::regproc);
            EXECUTE format('COMMENT ON TRIGGER %I ON js_data.%I IS %L', v_name, v_table, p_comment);
        END LOOP;
    END LOOP;
END $$;
COMMENT ON FUNCTION js_data.create_statement_triggers(text, text, text[], text[], text) IS 'create TABLE_SUFFIX_insert/_update/_delete statement triggers with transition tables that run a function, on js_data tables';

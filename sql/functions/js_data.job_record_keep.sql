-- SPDX-License-Identifier: GPL-2.0-or-later
-- What an older record captured while the job was alive and a newer one lacks (a record
-- written where the plugin's was not: another node's epilog, the controller's): kept, as
-- joblog keeps it in one spool (joblog_job_merge_previous).
CREATE FUNCTION js_data.job_record_keep(newer jsonb, older jsonb) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE k text;
BEGIN
    -- the names of js_job_record_kept (common/record_format.c)
    FOREACH k IN ARRAY ARRAY['workflow', 'batch_script', 'work_dir', 'submitter', 'account', 'qos', 'submit_ns',
                             'eligible_ns', 'array_job_id', 'array_task_id', 'nodes', 'node_list', 'cpus'] LOOP
        IF jsonb_typeof(newer->k) IS DISTINCT FROM 'string' AND jsonb_typeof(newer->k) IS DISTINCT FROM 'number'
           AND older ? k AND jsonb_typeof(older->k) <> 'null' THEN
            newer := jsonb_set(newer, ARRAY[k], older->k);
        END IF;
    END LOOP;
    IF jsonb_typeof(newer->'dependency') IS DISTINCT FROM 'string' AND jsonb_typeof(older->'dependency') = 'string' THEN
        newer := newer || jsonb_build_object('dependency', older->'dependency', 'dependencies', older->'dependencies',
                                             'dependency_any', older->'dependency_any',
                                             'dependency_parse_error', older->'dependency_parse_error');
    END IF;
    IF (older->>'batch')::boolean THEN
        newer := jsonb_set(newer, '{batch}', 'true');
    END IF;
    RETURN newer;
END $$;
COMMENT ON FUNCTION js_data.job_record_keep(jsonb, jsonb) IS 'the newer job record, with what the older one captured and the newer lacks (dependency, workflow, batch script, ...)';

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What a newer job record keeps of an older one is one list, js_job_record_kept in
# common/record_format.c; the three places that keep it (the receiver reads the list itself;
# joblog's merge into its own fields, transport-independent; the database's
# js_data.job_record_keep) name the same fields, so that a field the controller's record lacks
# is kept wherever two records of a job meet.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
cd "$JS_TOP_SRCDIR" || bail "no source tree"
plan 2

# the quoted names between two patterns of a file, sorted, one line
names() { sed -n "/$2/,/$3/p" "$1" | grep -o '"[a-z_]*"\|'"'"'[a-z_]*'"'" | tr -d "\"'" | sort -u | paste -sd' '; }
kept=$(names common/record_format.c 'js_job_record_kept\[\] = {' 'NULL,')
[ -n "$kept" ] || bail "no js_job_record_kept in common/record_format.c"
is "$(names sql/functions/js_data.job_record_keep.sql 'FOREACH k IN ARRAY' 'LOOP')" "$kept" \
   "js_data.job_record_keep keeps the fields of js_job_record_kept ($kept)"
# joblog: its tables of strings and of integers, less the dependency it keeps with its members
joblog=$({ names joblog/joblog_spool.c 'what js_job_record_kept' '^    };$'
           names joblog/joblog_spool.c 'int64_t \*field; } nums' '^    };$'; } | tr ' ' '\n' | grep -vx dependency | sort -u | paste -sd' ')
is "$joblog" "$kept" "joblog_job_merge_previous keeps the same fields"
done_testing

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The terminal report of jobscreen(1): replies of the JSON API (docs/api.md) written as text
 * that fits an 80-column terminal, in human units and the terminal's local time. Every string
 * that comes from the server (job, step and file names are the user's) is written with its
 * control characters replaced, so that no reply can move the cursor or recolour a terminal. */
#ifndef JSR_REPORT_H
#define JSR_REPORT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#define JSR_WIDTH 80

/* "0 B", "512 B", "1.5 KiB", "12.0 MiB", "1.2 GiB", ... (binary units, as Slurm's) */
void jsr_bytes(char *buf, size_t n, double bytes);
/* "45 s", "12 min 05 s", "3 h 07 min", "2 d 04 h" */
void jsr_duration(char *buf, size_t n, double seconds);
/* Slurm's elapsed form: "00:12:05", "1-02:03:04" */
void jsr_clock(char *buf, size_t n, double seconds);
/* local time "2026-11-24 10:00:01" */
void jsr_time(char *buf, size_t n, double epoch);
/* "72.4%", or "-" when whole is not above 0 */
void jsr_percent(char *buf, size_t n, double part, double whole);
/* s for a terminal: control characters (C0, DEL, C1) as '?', at most width columns (one per
 * UTF-8 character); a longer s loses its end (keep_end: its start) to a '~'. */
void jsr_clean(char *buf, size_t n, const char *s, int width, int keep_end);

/* text (already clean) from column col on, wrapped at spaces to JSR_WIDTH - 1 columns and
 * continued at column indent; a word longer than a line is cut where it must be */
void jsr_wrap(FILE *out, int col, int indent, const char *text);
/* The "warnings" of a job reply (file and scheduler edges together: docs/dependencies.md,
 * "Warnings"): a section, none when there are none (report_lineage.c). */
void jsr_warnings(FILE *out, const json_t *warnings);

/* GPUs and energy (report_gpu.c): "1.2 kWh" (J, Wh, kWh), with "; 0.4 kg CO2" once
 * jsr_set_co2 was given cli.conf's co2_g_per_kwh; the section of a job reply's steps that had
 * GPUs or energy, and the job's energy. */
void jsr_set_co2(double g_per_kwh);
void jsr_energy(char *buf, size_t n, double joules);
void jsr_gpus(FILE *out, const json_t *job);

/* The report of the "job" object of a job reply; now: the time running figures run to. Steps
 * that carry an "insight" member (job&insight=yes) get an Insight section; colour: its traffic
 * lights in colour (stdout is a terminal), else as words alone. */
void jsr_job(FILE *out, const json_t *job, time_t now, int colour);
/* The report of a workflow reply (the graph's compact form). */
void jsr_workflow(FILE *out, const json_t *reply, time_t now);
/* The "step_names" of a workflow&by=name reply: per job and step name, a line each. */
void jsr_step_names(FILE *out, const json_t *rows);
/* A job's steps as rows of the same shape (the steps the graph draws; job_name its step id,
 * step_name its name, "#2", "#3" added to a name that repeats). New reference. */
json_t *jsr_job_rows(const json_t *job, time_t now);
/* Two runs side by side, row by row: workflows by job and step name, jobs (by_step) by step
 * name; time, its change, CPU efficiency and I/O of each, and the totals. */
void jsr_compare(FILE *out, const char *title_a, const json_t *rows_a, const char *title_b, const json_t *rows_b,
                 int by_step);

#endif

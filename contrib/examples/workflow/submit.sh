#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A small sample workflow, as a user would write it by hand: five sbatch jobs, several srun
# steps each. Some jobs are chained through the scheduler (--dependency); "analyze" is
# submitted by this script only once "simulate" has ended, as workflow engines do, so the
# scheduler never learns that it reads what "simulate" wrote: only the files tell.
#
#   submit.sh WORKDIR      prints the job ids, one "name id" per line, and waits for all
set -euo pipefail
work=${1:?usage: submit.sh WORKDIR}
mkdir -p "$work"
cd "$work"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
submit() { # submit NAME [sbatch options...] -- SCRIPT
  local name=$1; shift
  local id
  id=$(sbatch --parsable --job-name="$name" --workflow=sample --output="$name-%j.out" "$@")
  echo "$name $id"
  eval "id_${name}=$id"
}

submit generate --ntasks=1 "$here/generate.sbatch"
submit simulate --nodes=2 --ntasks=2 --dependency="afterok:$id_generate" "$here/simulate.sbatch"
submit plot --ntasks=1 --dependency="afterany:$id_simulate" "$here/plot.sbatch"

# Like a workflow engine: wait for "simulate" ourselves, then submit without telling Slurm.
while squeue -h -j "$id_simulate" 2>/dev/null | grep -q .; do sleep 1; done
submit analyze --ntasks=1 "$here/analyze.sbatch"
submit archive --ntasks=1 --dependency="afterok:$id_analyze:$id_plot" "$here/archive.sbatch"

while squeue -h -j "$id_archive,$id_plot,$id_analyze" 2>/dev/null | grep -q .; do sleep 1; done

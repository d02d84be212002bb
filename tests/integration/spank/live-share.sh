#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A step's live snapshot costs the spool what its bundles do: the relay (root) copies the
# user's .live.<step>.<node>.json into the spool charged to the job's share on the node
# (spool_quota=), a copy replacing its predecessor in the ledger; one that does not fit is not
# copied, counted, said in the slurmd log and in the step record (live_refused); and it is
# copied at most once every 10 s (docs/plugin.md, "Two places"). jsbob's process writes its own
# snapshots as a hostile one would, twice a second: 2 MiB ones (twice his 1 MiB share) for
# 12 s, then 300 KiB ones for 22 s. The spool never holds more of his than his share, and his
# bundles are all kept.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
plan 10
args=$(cut -d' ' -f3- <<< "$js_plugstack_orig")
bob=$(work_dir jsbob)
share=$((1 << 20))
plugstack_with "$args spool_quota=1M"

cat > "$bob/live.py" <<'PY'
import os, time
live = "%s/.live.%s.%s.json" % (os.environ["JOBSCREEN_PROFILE_DIR"], os.environ["JOBSCREEN_STEP"],
                                os.environ["JOBSCREEN_NODE"])
def put(size, i):
    with open(live + ".mine", "wb") as f:
        f.write(bytes([48 + i % 10]) * size)
    os.rename(live + ".mine", live)
t0, i = time.time(), 0
while time.time() - t0 < 34:
    put((2 << 20) if time.time() - t0 < 12 else 300 << 10, i)
    i += 1
    time.sleep(0.5)
print("done")
PY
chmod 644 "$bob/live.py"
log_mark
jb=$(cd "$bob" && as_user jsbob sbatch --parsable --chdir="$bob" -o out.txt -J livehog --wrap "srun python3 $bob/live.py")

# watch the spool while it runs: all of his bytes there, and each copy of the step's snapshot
node= most=0 biggest=0 copies=()
for i in $(seq 600); do
  [ -n "$node" ] || node=$(job_node "$jb")
  p=$(job_dir "$jb")/profiles
  if [ -n "$node" ] && [ -d "$p" ]; then
    sum=$(find "$p" -maxdepth 1 -type f -printf '%s\n' 2>/dev/null | awk '{s += $1} END {print s + 0}')
    [ "$sum" -gt "$most" ] && most=$sum
    c=$(stat -c '%i %y %s' "$p/.live.0.$node.json" 2>/dev/null) && {
      [ "${c##* }" -gt "$biggest" ] && biggest=${c##* }
      [ "${copies[-1]:-}" = "$c" ] || copies+=("$c")
    }
  fi
  case "$(job_state "$jb")" in COMPLETED|FAILED|CANCELLED|TIMEOUT) break ;; esac
  sleep 0.2
done
is "$(job_state "$jb") $(cat "$bob/out.txt")" "COMPLETED done" "bob's job runs to its end: what the share refuses changes nothing for it"
ok $(( most <= share ? 0 : 1 )) "the spool never held more of his than his share: at most $most B of $share"
is "$biggest" $((300 << 10)) "no 2 MiB snapshot was copied; the 300 KiB ones were"
n=${#copies[@]}
ok $(( n >= 2 && n <= 5 ? 0 : 1 )) "the step's snapshot was copied $n times in 34 s, not at each of its 68 changes (at most once every 10 s)"

wait_file "$(job_dir "$jb")/step.0.$node.json"
wait_file "$(job_dir "$jb")/step.batch.$node.json" # the batch step's snapshot is gone too
rec=$(job_dir "$jb")/step.0.$node.json
lr=$(jq -r '[.live_refused.snapshots, .live_refused.bytes] | map(. // 0) | join(" ")' "$rec")
ok $(( ${lr% *} >= 1 && ${lr#* } >= ${lr% *} * (2 << 20) ? 0 : 1 )) \
   "his step record says what was left out: ${lr% *} snapshots not copied (${lr#* } B)"
like "$(jq -r '.live_refused.reason' "$rec")" \
   "^they did not fit in the job's spool quota on this node \\(1048576 B; a snapshot is at most 67108864 B\\)$" "and why, in words"
log=$(log_since)
like "$(grep -m1 "job $jb: relay: .live.0.$node.json" <<< "$log")" \
   "\\.live\\.0\\.$node\\.json \\(2097152 B\\): more than the job's share of the spool on this node has left; not copied" \
   "the slurmd log says so when the share bites"
like "$(grep -m1 "job $jb: .* live snapshots of the step" <<< "$log")" \
   "job $jb: they did not fit in the job's spool quota on this node \\(1048576 B; .*\\): [0-9]+ live snapshots of the step \\([0-9]+ B\\) not copied" \
   "and at the step's end, how many"
is "$(jq -r '.unrecorded.processes // 0' "$rec")" 0 "his bundles were all kept: the snapshot's charge went back to the share at the step's end"
sizes=$(stat -c %s "$(job_dir "$jb")"/profiles/* 2>/dev/null | awk '{s += $1; n++} END {print s + 0, n + 0}')
taken=$(od -An -t d8 -j 8 -N 16 "$(job_dir "$jb")/.spool.$node" 2>/dev/null | tr -s ' ' | sed 's/^ //')
is "${taken:-0 0}" "$sizes" "the share's ledger holds the bytes and bundles in the spool ($sizes): no snapshot is charged once they are gone"
rm -rf "$bob"
done_testing

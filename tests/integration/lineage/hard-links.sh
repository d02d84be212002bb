#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A file is one file under all its names (issue 36): its identity is the device, inode and birth
# time (statx) of the first open, so that, through the cluster's pipeline, each job on another
# node of a shared directory:
# - a consumer reading cc/in.dat, a hard link of the producer's aa/out.dat, has its file edge,
#   each side's name kept (the edge's path the reader's, from_path the writer's), one workflow;
# - the trap that sank (dev, ino) alone: a producer's files deleted and new files created on
#   the freed inodes by a process that is not profiled (as slurmd makes slurm_script) give
#   their reader no edge: same device and inode, another birth time;
# - a file rewritten in place (same inode) under another name still joins its reader;
# - the API's edge evidence (the viewer's clicked edge) has both names.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline (transport/ or profile_ingest not built)"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
[ "$(wc -w <<< "$JS_NODES")" -ge 2 ] || skip_all "needs a cluster of 2 nodes or more"
command -v jq >/dev/null || skip_all "jq is not installed"
plan 13
q() { psql -X -q -At -F'|' -d "$JS_DB" -c "$1"; }
nodes=($JS_NODES)
other=${nodes[-1]}
w=$(work_dir jsalice)
sb() { (cd "$w" && as_user jsalice sbatch --parsable --chdir="$w" -o /dev/null "$@"); }
short() { sed -E 's|[^ >=:]*/([^/ =]+/[^/ =]+)|\1|g'; } # paths as dir/name
edges() { q "SELECT string_agg(from_job || '>' || to_job || ':' || from_path || '=' || path, ' ' ORDER BY from_job, path) FROM js.dependencies WHERE kind = 'file' AND to_job = $1" | short; }
ident() { q "SELECT a.dev || ':' || a.ino || ':' || coalesce(a.btime::text, 'null') FROM js.file_accesses a WHERE a.job_id = $1 AND a.path LIKE '%/$2'"; }
mkdir -p "$w/aa" "$w/cc" "$w/rr" "$w/ip" && chown jsalice "$w/aa" "$w/cc" "$w/rr" "$w/ip"
[ "$(stat -c %W "$w" 2>/dev/null || echo 0)" != 0 ] || skip_all "the cluster directory's file system reports no birth time (statx)"

# --- a hard link: the producer writes aa/out.dat, the link is made between the jobs ---
hp=$(sb -J link-produce -w "${nodes[0]}" --wrap "srun bash -c 'seq 1000 > aa/out.dat'")
wait_job_done "$hp" 60 >/dev/null
as_user jsalice ln "$w/aa/out.dat" "$w/cc/in.dat"
hl=$(sb -J link-consume -w "$other" --wrap "srun bash -c 'wc -l < cc/in.dat > cc/count'")
wait_job_done "$hl" 60 >/dev/null

# --- inode reuse: the producer's files deleted, new files on their inodes, written unprofiled ---
rp=$(sb -J reuse-produce -w "${nodes[0]}" --wrap "srun bash -c 'for i in \$(seq 40); do echo \$i > rr/gone\$i.dat; done'")
wait_job_done "$rp" 60 >/dev/null
(cd "$w/rr" && stat -c '%d:%i %n' gone*.dat) > "$w/gone.ino"
rm -f "$w"/rr/gone*.dat
# the file system gives freed inodes to the next files it creates (others may take some of
# them: forty, so that one at least comes back)
as_user jsalice bash -c 'for k in $(seq 40); do echo new > "$1/rr/new$k.dat"; done' _ "$w"
read -r k g < <(cd "$w/rr" && stat -c '%d:%i %n' new*.dat | while read -r id n; do
  o=$(awk -v id="$id" '$1 == id { print $2 }' "$w/gone.ino"); [ -n "$o" ] && echo "${n#new} ${o#gone}"; done | head -n 1)
k=${k%.dat}; g=${g%.dat}
[ -n "$k" ] && [ -n "$g" ]; ok $? "the file system reused a deleted file's inode: rr/new$k.dat on rr/gone$g.dat's (the trap is set)"
rc=$(sb -J reuse-consume -w "$other" --wrap "srun bash -c 'cat rr/new$k.dat > rr/seen'")
wait_job_done "$rc" 60 >/dev/null

# --- in place: a file rewritten through its second name by a later producer ---
: > "$w/ip/a.dat" && chown jsalice "$w/ip/a.dat" && ln "$w/ip/a.dat" "$w/ip/b.dat"
ipp=$(sb -J inplace-produce -w "${nodes[0]}" --wrap "srun bash -c 'seq 10 > ip/a.dat'")
wait_job_done "$ipp" 60 >/dev/null
ipc=$(sb -J inplace-consume -w "$other" --wrap "srun bash -c 'cat ip/b.dat > ip/seen'")
wait_job_done "$ipc" 60 >/dev/null

is "$(for j in $hp $hl $rp $rc $ipp $ipc; do job_state "$j"; done | sort -u | paste -sd' ')" COMPLETED "the jobs ran"
wait_pipeline 180 $hp $hl $rp $rc $ipp $ipc
ok $? "the jobs reached the database"

# the hard link: one identity, each access its own name, one file edge keeping both names
a=$(ident "$hp" aa/out.dat); b=$(ident "$hl" cc/in.dat)
like "$a" '^[0-9]+:[0-9]+:[0-9]+$' "the producer's access has dev, ino and birth time"
is "$b" "$a" "the consumer's access of the hard link has the same identity"
is "$(edges "$hl")" "$hp>$hl:aa/out.dat=cc/in.dat" "the consumer of a hard link has its file edge, the writer's name and the reader's"
is "$(q "SELECT count(DISTINCT workflow_id) FROM js.jobs WHERE job_id IN ($hp, $hl)")" 1 "producer and consumer are one workflow"
body=$(curl -s -G -u jsalice:jsalice "${JS_WEB_URL}cgi-bin/jobscreen.cgi" --data-urlencode q=workflow \
  --data-urlencode "job=$hl" --data-urlencode "from=$hp" --data-urlencode "to=$hl")
is "$(jq -r '.edges[] | select(.kind == "file") | .evidence | "\(.paths[0])=\(.written_as[0])"' <<< "$body" | short)" "cc/in.dat=aa/out.dat" \
   "the API's edge evidence names the file as read and as written"

# the reused inode: same device and inode, another birth time, no edge
a=$(ident "$rp" "rr/gone$g.dat"); b=$(ident "$rc" "rr/new$k.dat")
is "${a%:*}" "${b%:*}" "the reader's file has the deleted file's device and inode"
[ "${a##*:}" != "${b##*:}" ] && [ "${b##*:}" != null ]; ok $? "but another birth time (${a##*:}, ${b##*:})"
is "$(edges "$rc")" "" "so the reader of the new file has no file edge from the deleted file's writer"

# rewritten in place through one name, read through the other: the same file
is "$(edges "$ipc")" "$ipp>$ipc:ip/a.dat=ip/b.dat" "a file rewritten in place joins the reader of its other name"
is "$(q "SELECT count(*) FROM js.dependencies WHERE kind = 'file' AND to_job IN ($hl, $rc, $ipc) AND from_job NOT IN ($hp, $ipp)")" 0 \
   "no other job gives these readers a file edge (their slurm_scripts included)"
done_testing

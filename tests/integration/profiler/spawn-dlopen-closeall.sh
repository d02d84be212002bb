#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# vfork + exec, posix_spawn, dlopen/dlclose and closing every descriptor at once: each image
# profiles itself, the vfork child writes nothing of its own, and a descriptor number reused
# after close_range counts for its new file.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/profiler/lib.sh"
plan 7
base=$(mktemp -d "$JS_SHARED_DIR"/js-prof34.XXXXXX); dir=$base/p; work=$base/w; mkdir -p "$dir" "$work"
prof_srun "$dir" -N1 -n1 -- "$PROG/spawn_misc" "$work"
ok $? "spawn_misc runs to exit 0 under the profiler"
is "$(find "$dir" -name '*.json' | wc -l)" 3 "three images: the program, /bin/true after vfork, the spawned child"
main=$(jq -r 'select(.args == "'"$PROG/spawn_misc $work"'") | input_filename' "$dir"/*.json)
is "$(jq -c '.totals | [.posix_open_calls, .posix_write_calls, .posix_write_bytes]' "$main")" "[2,3,30]" \
   "the program: 2 opens, 3 writes of 10 B (nothing from its vfork child, dlopen or the spawn)"
is "$(jq -c '[.files[] | [(.path | sub(".*/"; "")), .opens, .write_calls, .write_bytes]]' "$main")" '[["a.dat",1,0,0],["b.dat",1,3,30]]' \
   "after close_range the reused descriptor counts for b.dat, not a.dat"
is "$(jq -r 'select(.exe == "/usr/bin/true") | [.origin, .end] | @tsv' "$dir"/*.json)" "$(printf 'start\texit')" \
   "/bin/true, exec'd from the vfork child, profiles itself"
is "$(jq -r 'select(.args | endswith(" child")) | [.origin, .totals.posix_write_calls, .totals.posix_write_bytes] | @tsv' "$dir"/*.json)" \
   "$(printf 'start\t4\t100')" "the posix_spawn'ed child: 4 writes, 100 B"
pid=$(jq -r .pid "$main")
is "$(jq -r 'select(.exe == "/usr/bin/true" or (.args | endswith(" child"))) | .ppid' "$dir"/*.json | sort -u)" "$pid" \
   "both children are the program's"
rm -rf "$base" "$dir.ids"
done_testing

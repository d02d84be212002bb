#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The lengths rule of the whole house (CONTRIBUTING.md, issue 38): no C file (source or header)
# above 800 lines, no C function above 100 lines, no JavaScript file above 500 lines. Every
# tracked file counts, the tests' own included; the vendored code (web/static/vendor/) and the
# generated files (profile_ingest/migrations.c, web/queries.c, config.h: never tracked) do not.
# A function's length runs from the first line of its signature to its closing brace, as the
# house style writes them (.clang-format): the signature starts at column 0, the body's braces
# stand alone at column 0.
# tests/lengths-pending lists what is still over while another branch cuts it (PATH for the
# file's length, PATH:FUNCTION for a function): reported as TODO, not failed, for as long as it
# is over; a line whose file or function is within the limits fails, so that none stays behind.
# JS_MAX_FILE_LINES, JS_MAX_FUNCTION_LINES and JS_MAX_JS_LINES lower the limits (to see it fail).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
cd "$JS_TOP_SRCDIR" || bail "no source tree"
git rev-parse --git-dir >/dev/null 2>&1 || skip_all "not a git checkout (the sources tracked are the ones checked)"
# a tarball unpacked inside a checkout (make distcheck) is not the tree git tracks
[ -z "$(git rev-parse --show-prefix)" ] || skip_all "not the top of a git checkout (the tarball's copy)"
max_file=${JS_MAX_FILE_LINES:-800}
max_fn=${JS_MAX_FUNCTION_LINES:-100}
max_js=${JS_MAX_JS_LINES:-500}
pending_file=${JS_LENGTHS_PENDING:-tests/lengths-pending}
[ -r "$pending_file" ] || bail "no $pending_file"

# "LINES FILE:LINE NAME" for every function of the files named
functions() {
  awk 'FNR == 1 { infn = 0; sig = 0 }
       !infn && /^[A-Za-z_]/ { sig = FNR; name = "?"; if (match($0, /[A-Za-z_][A-Za-z0-9_]*\(/)) name = substr($0, RSTART, RLENGTH - 1) }
       !infn && /^\{/ { infn = 1; next }
       infn && /^\}/ { infn = 0; printf "%d %s:%d %s\n", FNR - sig + 1, FILENAME, sig, name }' "$@"
}
# "PATH (N lines)" for each file named above the limit $1
long_files() {
  local max=$1; shift
  [ $# -gt 0 ] || return 0
  wc -l "$@" | awk -v m="$max" '$2 != "total" && $1 > m { print $2 " (" $1 " lines)" }'
}
# the pending entries, comments and blanks aside: "ENTRY OWNER"
mapfile -t pending < <(sed -e 's/[[:space:]]*#[[:space:]]*/\t/' "$pending_file" | awk -F'\t' '$1 != "" { print $1 " " $2 }')
is_pending() { local p; for p in "${pending[@]}"; do [ "${p%% *}" = "$1" ] && return 0; done; return 1; }

plan $((4 + ${#pending[@]}))
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

mapfile -t cfiles < <(git ls-files '*.c' '*.h' | grep -v '^web/static/vendor/')
mapfile -t jsfiles < <(git ls-files '*.js' '*.mjs' | grep -v '^web/static/vendor/')
[ ${#cfiles[@]} -gt 0 ] || bail "no tracked C file"
functions "${cfiles[@]}" > "$tmp/fns"

# the measure itself: a function of 101 lines is seen as one, so the checks below can fail
{ printf 'static int f(int x)\n{\n'; for i in $(seq 97); do printf '    x++;\n'; done; printf '    return x;\n}\n'; } > "$tmp/sample.c"
is "$(functions "$tmp/sample.c" | sed "s|$tmp/||") $([ "$(wc -l < "$tmp/fns")" -ge 1000 ] && echo many)" "101 sample.c:1 f many" \
   "the measure counts a 101-line function as 101 lines, and finds the functions of the tree ($(wc -l < "$tmp/fns") in ${#cfiles[@]} files)"

# the lines of stdin ("PATH (N lines)") whose file is not pending
not_pending() { local line; while IFS= read -r line; do is_pending "${line%% *}" || echo "$line"; done; }
over=$(long_files "$max_file" "${cfiles[@]}" | not_pending)
[ -z "$over" ]; ok $? "no C file is above $max_file lines (but those pending in $pending_file)"
[ -z "$over" ] || diag "cut these into files by concern (new code goes into new files):"$'\n'"$over"
over=$(sort -rn "$tmp/fns" | awk -v m="$max_fn" '$1 > m { print $2 " " $3 ": " $1 " lines" }' |
       while read -r where name lines _; do key=${where%%:*}:${name%:}; is_pending "$key" || echo "$where $name $lines lines"; done)
[ -z "$over" ]; ok $? "no C function is above $max_fn lines (but those pending in $pending_file)"
[ -z "$over" ] || diag "cut these functions (file:line name: length):"$'\n'"$over"
over=$(long_files "$max_js" "${jsfiles[@]}" | not_pending)
[ -z "$over" ]; ok $? "no JavaScript file is above $max_js lines (but those pending in $pending_file)"
[ -z "$over" ] || diag "cut these into modules:"$'\n'"$over"

# each pending line: still over (a TODO), or it must go
for p in "${pending[@]}"; do
  entry=${p%% *} owner=${p#* } path=${entry%%:*} fn=
  [ "$path" != "$entry" ] && fn=${entry#*:}
  _tap_n=$((_tap_n + 1))
  if [ ! -f "$path" ]; then
    echo "not ok $_tap_n - $pending_file: $path is no file of the tree: remove its line"; _tap_failed=$((_tap_failed + 1)); continue
  fi
  if [ -n "$fn" ]; then
    lines=$(awk -v p="$path" -v f="$fn" '{ split($2, a, ":"); if (a[1] == p && $3 == f) print $1 }' "$tmp/fns" | sort -rn | head -1)
    max=$max_fn what="function $fn of $path"
  else
    lines=$(wc -l < "$path")
    case $path in *.js|*.mjs) max=$max_js ;; *) max=$max_file ;; esac
    what="file $path"
  fi
  if [ "${lines:-0}" -gt "$max" ]; then
    echo "not ok $_tap_n - the $what is $lines lines (above $max) # TODO pending: $owner"
  else
    echo "not ok $_tap_n - the $what is ${lines:-no longer there} (within $max lines): remove its line from $pending_file"
    _tap_failed=$((_tap_failed + 1))
  fi
done
done_testing

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The receiver refuses before it reads (issue 35, item 6), through the cluster's lighttpd: a
# POST of 100 MB without a credential is refused (403) with none of its body read by the
# receiver and almost none taken by the web server; a Content-Length above max_bytes (413) and
# a credential that is not root's or does not decode (403) likewise, before a byte is read.
# A parcel of 10 MB (held in a temporary file, not in memory) is stored byte for byte, and
# altered it is refused after reading; jobscreen-send with --parcel-max 4096 makes no parcel
# above it but of a single file, and every step-node still lands in JS_DB.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
[ -n "${JS_RECEIVE_URL:-}" ] || skip_all "the cluster serves no /receive (built without transport/?)"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline (transport/ or profile_ingest not built)"
SEND=$JS_TOP_BUILDDIR/transport/jobscreen-send GEN=$JS_TOP_BUILDDIR/bench/gen/jsgen
plan 14
JS_CGI_LOG=${JS_CGI_LOG:-$JS_CLUSTER_DIR/log/www/cgi.log}
T=$(mktemp -d "$JS_CLUSTER_DIR/t59b.XXXXXX")
at_exit 'rm -rf "$T" "$JS_RECEIVED_DIR"/job.99999[67]'
MAX=67112960 # the receiver's default max_bytes: the largest file of a parcel (64 MiB) + 4 KiB
logmark=0
mark() { logmark=$(stat -c %s "$JS_CGI_LOG" 2>/dev/null || echo 0); }
newlog() { tail -c +$((logmark + 1)) "$JS_CGI_LOG"; }
# post FILE [CREDENTIAL]: FILE streamed as the body (curl -T: its size as Content-Length, read
# as it is sent); prints "HTTP-CODE BYTES-UPLOADED"
post() {
  curl -s -o "$T/reply" -w '%{http_code} %{size_upload}' -X POST -T "$1" -H 'Content-Type: application/x-jobscreen-parcel' \
    ${2:+-H "X-Jobscreen-Credential: $2"} "$JS_RECEIVE_URL"
}
cred() { openssl dgst -sha256 -binary "$2" | runuser -u "$1" -- munge -S "$JS_MUNGE_SOCKET"; }
echo small > "$T/small"

# --- refused before reading ---
truncate -s 100M "$T/100M"
mark
read -r code up < <(post "$T/100M")
is "$code $(newlog | grep -c 'refused parcel from .* (0 bytes read of 104857600): no credential')" "403 1" \
  "100 MB without a credential: 403, logged as refused with 0 bytes of the body read"
ok $(( up < 16 * 1048576 ? 0 : 1 )) "the web server took $up of its 104857600 bytes (it streams the body to the receiver, which read none)"
truncate -s $((MAX + 1)) "$T/over"
mark
read -r code up < <(post "$T/over" "$(cred root "$T/small")")
is "$code $(newlog | grep -c "refused parcel .* (0 bytes read of $((MAX + 1))): Content-Length $((MAX + 1)) is over the bound of $MAX bytes")" \
  "413 1" "a Content-Length one byte above max_bytes ($MAX, the default): 413 before a byte is read (sent: $up)"
truncate -s 50M "$T/50M"
mark
read -r code up < <(post "$T/50M" "$(cred jsbob "$T/50M")")
is "$code $(newlog | grep -c "refused parcel .* (0 bytes read of 52428800): credential of uid $(id -u jsbob), not of uid 0")" "403 1" \
  "50 MB under jsbob's credential: 403 before a byte is read (munged decoded it first)"
mark
read -r code up < <(post "$T/50M" "MUNGE:not-a-credential:")
is "$code $(newlog | grep -c 'refused parcel .* (0 bytes read of 52428800): credential refused by munge')" "403 1" \
  "50 MB under a credential that does not decode: 403 before a byte is read"

# --- a legitimate large parcel: read through a temporary file, stored byte for byte ---
head -c 10485760 /dev/urandom > "$T/bundle"
{ printf 'jobscreen-parcel 1 job.999997\nprofiles/0.n1.b1.json 10485760\n'; cat "$T/bundle"; printf 'end\n'; } > "$T/big.parcel"
mark
read -r code up < <(post "$T/big.parcel" "$(cred root "$T/big.parcel")")
cmp -s "$T/bundle" "$JS_RECEIVED_DIR/job.999997/profiles/0.n1.b1.json"
is "$code $? $(cat "$T/reply")" "200 0 stored job.999997: 1 files" "a parcel of 10 MB under root's credential: stored byte for byte"
rm -rf "$JS_RECEIVED_DIR/job.999997"
# --- compressed: the same parcel gzipped is stored byte for byte; a decompression bomb under
# root's credential (100 kB of gzip, 100 MB of zeros inflated) is refused at max_bytes ---
gzip -1 -c "$T/big.parcel" > "$T/big.gz"
zpost() { curl -s -o "$T/reply" -w '%{http_code}' -X POST --data-binary "@$1" -H 'Content-Encoding: gzip' \
  -H 'Content-Type: application/x-jobscreen-parcel' -H "X-Jobscreen-Credential: $2" "$JS_RECEIVE_URL"; }
code=$(zpost "$T/big.gz" "$(cred root "$T/big.gz")")
cmp -s "$T/bundle" "$JS_RECEIVED_DIR/job.999997/profiles/0.n1.b1.json"
is "$code $? $(cat "$T/reply")" "200 0 stored job.999997: 1 files" "the same parcel gzipped (Content-Encoding: gzip): stored byte for byte"
rm -rf "$JS_RECEIVED_DIR/job.999997"
{ printf 'jobscreen-parcel 1 job.999997\nprofiles/0.n1.b1.json 104857600\n'; head -c 104857600 /dev/zero; printf 'end\n'; } |
  gzip -9 > "$T/bomb.gz"
mark
code=$(zpost "$T/bomb.gz" "$(cred root "$T/bomb.gz")")
is "$code $(newlog | grep -c "refused parcel .*: the compressed body of $(stat -c %s "$T/bomb.gz") bytes inflates to more than $MAX bytes (max_bytes)") $(ls -d "$JS_RECEIVED_DIR"/job.999997 2>/dev/null | wc -l)" \
  "413 1 0" "a decompression bomb ($(stat -c %s "$T/bomb.gz") bytes of gzip, 100 MB inflated) under root's credential: 413 at max_bytes, nothing stored"
{ printf 'jobscreen-parcel 1 job.999996\nprofiles/0.n1.b1.json 10485760\n'; cat "$T/bundle"; printf 'end\n'; } > "$T/altered.parcel"
size=$(stat -c %s "$T/altered.parcel")
read -r code up < <(post "$T/altered.parcel" "$(cred root "$T/big.parcel")")
is "$code $(newlog | grep -c "refused parcel .* ($size bytes read of $size): the body does not match")" "403 1" \
  "the same 10 MB altered, under a root credential made for the first: read (through the temporary file), then 403"
is "$(ls -d "$JS_RECEIVED_DIR"/job.999996 2>/dev/null | wc -l)" 0 "the refused parcel wrote nothing"

# --- jobscreen-send keeps to --parcel-max: a parcel above it holds a single file ---
JOBS=3 STEPS=2 NODES=2
first=$(( 61000000 + RANDOM % 1000 * 1000 ))
mkdir -m 711 "$T/node"
"$GEN" --uniform --bundle --out "$T/node" --job-id-base "$first" --jobs "$JOBS" --steps "$STEPS" --nodes "$NODES" --ppn 4 \
  --slices 60 --files 2 --uid "$(id -u nobody)" --gid "$(id -g nobody)" --user nobody \
  --start $(( ($(date +%s) / 4 - 21600 - 70) * 4 )) >/dev/null
"$SEND" --once --spool "$T/node" --url "$JS_RECEIVE_URL" --munge-socket "$JS_MUNGE_SOCKET" --job-grace 0 \
  --parcel-max 4096 2>"$T/send.log"
# "sent job.N step S on N (B bundles, no step record, X bytes)", "... (0 bundles and the step
# record, X bytes)", "sent job.N job record (X bytes)": one file each
mixed=$(grep ' sent ' "$T/send.log" | grep -Ev '\((1 bundles, no step record|0 bundles and the step record), [0-9]+ bytes\)$| job record \([0-9]+ bytes\)$' |
  sed -n 's/.*, \([0-9]*\) bytes)$/\1/p' | awk '$1 > 4096' | wc -l)
is "$(grep -c ' sent ' "$T/send.log") $mixed" "$(grep -c ' sent ' "$T/send.log") 0" \
  "--parcel-max 4096: of $(grep -c ' sent ' "$T/send.log") parcels, none above 4096 bytes holds more than one file"
# "stored a post of P parcels (F files, X bytes[, Z gzip])": posts of several parcels keep to
# it too (X: before compression, what the receiver's max_bytes bounds once inflated)
posts=$(grep -c 'stored a post of' "$T/send.log")
over=$(sed -n 's/.*stored a post of [0-9]* parcels ([0-9]* files, \([0-9]*\) bytes.*/\1/p' "$T/send.log" | awk '$1 > 4096' | wc -l)
is "$over" 0 "--parcel-max 4096: of $posts posts of several parcels, none above 4096 bytes"
is "$(ls -A "$T/node" | wc -l)" 0 "the node spool was sent in full: empty"
in59b="job_id BETWEEN $first AND $((first + 999))"
for i in $(seq 300); do
  [ "$(DB=$JS_DB q "SELECT count(*) FROM js.step_nodes WHERE $in59b")" = $((JOBS * STEPS * NODES)) ] && break; sleep 0.2
done
is "$(DB=$JS_DB q "SELECT count(*) FROM js.step_nodes WHERE $in59b")" $((JOBS * STEPS * NODES)) \
  "the cluster's ingest took every step-node of them ($((JOBS * STEPS * NODES)))"
done_testing

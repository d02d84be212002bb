#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/gpu/device-check, the real-GPU check, run dry: a fake nvidia-smi (42 %, 1001 MiB,
# 250 W every 0.5 s), a fake python whose "PyTorch load" only says it is ready (the analysis is
# the real python3), and the sampler on the scripted NVML with the same values. So the script
# that is carried to a GPU machine is known to run to its figures, which here must agree.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
tool=$JS_TOP_BUILDDIR/gpu/jobscreen-gpu-sample
standin=$JS_TOP_BUILDDIR/tests/gpu/.libs/libnvml-standin.so
[ -x "$tool" ] && [ -f "$standin" ] || bail "build first (make check builds the stand-in)"
[ -x /usr/bin/python3 ] || skip_all "no /usr/bin/python3"
plan 4
f=$(mktemp -d); at_exit "rm -rf '$f'"
cat > "$f/nvidia-smi" <<'FAKE'
#!/usr/bin/env bash
case "$*" in
  *uuid*) echo "GPU-11111111" ;;
  *driver_version*) echo "Fake H200, 550.00, 143771 MiB" ;;
  *-lms*) while :; do echo "$(date '+%Y/%m/%d %H:%M:%S.%3N'), 42, 1001, 250.00"; sleep 0.5; done ;;
esac
FAKE
cat > "$f/py" <<'FAKE'
#!/usr/bin/env bash
if [ "$1" = -c ]; then exit 0; fi
if [ "$1" = - ] && [ $# -eq 3 ]; then cat > /dev/null; echo ready > "$3"; sleep "$2"; exit 0; fi
exec /usr/bin/python3 "$@"
FAKE
cat > "$f/sampler" <<FAKE
#!/usr/bin/env bash
exec "$tool" --nvml "$standin" "\$@"
FAKE
echo "gpu uuid=GPU-11111111 name=H200 mem_total=150000 mem_used=1049624576 util_sm=42 power=250000 energy=0+125000" > "$f/nvml"
chmod +x "$f/nvidia-smi" "$f/py" "$f/sampler"
JS_NVML_STANDIN=$f/nvml PATH=$f:$PATH PYTHON=$f/py "$JS_TOP_SRCDIR/bench/gpu/device-check" \
  --seconds 4 --sampler "$f/sampler" --out "$f/out" > "$f/report" 2>&1
ok $? "the check runs to its end ($(grep -c '^gpu check' "$f/report") figure lines)"
diag "$(cat "$f/report")"
is "$(grep -c 'mean utilization: jobscreen 42.0 %, nvidia-smi 42.0 %, difference 0.0 points' "$f/report")" 2 \
   "both phases: the utilization of both sides, and their difference"
is "$(grep -c 'memory peak: jobscreen 1001 MiB, nvidia-smi 1001 MiB, difference 0.00 %' "$f/report")" 2 \
   "both phases: the memory peaks (bytes against MiB), and their difference"
# the scripted counter steps 125 J a reading whatever the reading's time, so a loaded machine's
# late readings make a difference of a few hundredths of a percent: under 1 % is the plumbing
is "$(grep -cE 'energy: .*\(energy counter\), .* difference 0\.[0-9]+ %' "$f/report")" 2 \
   "both phases: the energy counter against power.draw integrated over the same span (under 1 %)"
done_testing

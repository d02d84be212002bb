#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# jobscreen-gpu-sample against the scripted NVML and a scripted powercap tree: its JSON lines
# say the node, every sample and every slice; the energy of the slices adds up to the scripted
# counter's difference; a node without NVML is said as such and still sampled for CPU energy;
# --step-env takes the step's GPUs from Slurm's variables.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
tool=$JS_TOP_BUILDDIR/gpu/jobscreen-gpu-sample
standin=$JS_TOP_BUILDDIR/tests/gpu/.libs/libnvml-standin.so
[ -x "$tool" ] || bail "no $tool (build first)"
[ -f "$standin" ] || bail "no $standin (make check builds it)"
command -v jq >/dev/null || skip_all "jq is not installed"
plan 11
d=$(mktemp -d); at_exit "rm -rf '$d'"
cat > "$d/nvml" <<'SCRIPT'
gpu uuid=GPU-11111111 name=H200 mem_total=150000 mem_used=1000 util_sm=42 util_mem=7 power=250000 energy=0+100
proc pid=4242 mem=900 sm=40 memutil=6
gpu uuid=GPU-22222222 name=H200 mem_total=150000 mem_used=3 util_sm=0 util_mem=0 power=70000 energy=none
SCRIPT
mkdir -p "$d/pc/intel-rapl:0"
echo package-0 > "$d/pc/intel-rapl:0/name"; echo 1000 > "$d/pc/intel-rapl:0/energy_uj"
echo 262143328850 > "$d/pc/intel-rapl:0/max_energy_range_uj"
export JS_NVML_STANDIN=$d/nvml

"$tool" --nvml "$standin" --powercap "$d/pc" --interval 100 --duration 2 --slice 1 > "$d/out" 2> "$d/err"
ok $? "it runs for its duration and exits 0"
node=$(head -n 1 "$d/out")
is "$(jq -r '[.type, .nvml, (.gpus | length), .gpus[0].uuid, .selection, .zones[0].name] | join(" ")' <<< "$node")" \
   "node ok 2 GPU-11111111 all package-0" "the first line says the node: NVML, its GPUs, the powercap zones"
n=$(jq -s '[.[] | select(.type == "sample")] | length' "$d/out")
ok $([ "$n" -ge 15 ] && [ "$n" -le 21 ]; echo $?) "a sample every 100 ms for 2 s ($n samples)"
is "$(jq -s -c '[.[] | select(.type == "sample")][0] | [.gpus[0].util_sm, .gpus[0].mem_used, .gpus[1].power_mw, .procs[0].pid, .procs[0].mem_used, .cpu_energy_uj[0]]' "$d/out")" \
   "[42,1000,70000,4242,900,1000]" "a sample holds the scripted values, the process and the CPU counter"
full=$(jq -s -c '[.[] | select(.type == "slice" and (.partial | not) and .ticks >= 5)][0] | [.gpus[0].util_sm_mean, .gpus[0].mem_used_max, .gpus[0].energy, .gpus[1].energy, .procs[0].mem_used_max]' "$d/out")
is "$full" '[42,1000,"counter","estimated",900]' "a whole slice holds the scripted values; energy counted, or estimated where there is no counter"
sum=$(jq -s '[.[] | select(.type == "slice") | .gpus[0].energy_mj] | add | round' "$d/out")
is "$sum" "$(( (n - 1) * 100 ))" "the slices' energy adds up to the scripted counter's difference ($((n - 1)) x 100 mJ)"
is "$(tail -n 1 "$d/out" | jq -r '[.type, .samples, .gpus, .stuck] | join(" ")')" "end $n 2 false" \
   "the last line says what the sampling cost ($(tail -n 1 "$d/out" | jq -c '{cpu_us_per_sample, cpu_us_per_gpu_per_slice}'))"

"$tool" --nvml "$d/none.so" --powercap "$d/pc" --interval 100 --duration 1 > "$d/out2" 2>&1
st=$?
is "$st $(head -n 1 "$d/out2" | jq -r '.nvml' | cut -c1-8) $(jq -s '[.[] | select(.type == "sample")] | length > 5' "$d/out2")" \
   "0 no GPUs: true" "no NVML library: said as such, and the CPU energy is sampled all the same"

SLURM_STEP_GPUS=1 "$tool" --nvml "$standin" --powercap "$d/pc" --interval 100 --duration 1 --step-env --slices-only > "$d/out3" 2>&1
is "$(head -n 1 "$d/out3" | jq -c '[.selection, [.gpus[] | .selected]]') $(jq -s '[.[] | select(.type == "sample")] | length' "$d/out3")" \
   '["SLURM_STEP_GPUS",[false,true]] 0' "--step-env: the step's GPUs from SLURM_STEP_GPUS; --slices-only prints no samples"

# processes of the three lists NVML keeps: compute, graphics, an MPS server's clients; a
# process in two lists is one, with the larger memory either gives
cat > "$d/nvml-lists" <<'SCRIPT'
gpu uuid=GPU-33333333 name=H200 mem_total=150000 mem_used=2000 util_sm=10 util_mem=1 power=100000 energy=0+10
proc pid=5001 mem=100
proc pid=5002 mem=200 list=graphics
proc pid=5003 mem=300 list=mps
proc pid=5001 mem=150 list=graphics
SCRIPT
JS_NVML_STANDIN=$d/nvml-lists "$tool" --nvml "$standin" --powercap "$d/pc" --interval 100 --duration 1 > "$d/out4" 2>&1
is "$(jq -s -c '[.[] | select(.type == "sample")][0].procs | map([.pid, .mem_used]) | sort' "$d/out4")" \
   "[[5001,150],[5002,200],[5003,300]]" "compute, graphics and MPS client processes listed; one listed twice counted once"

"$tool" --interval 10 > /dev/null 2>&1
is "$?" "2" "a bad option is refused (exit 2)"
done_testing

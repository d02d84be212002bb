# SPDX-License-Identifier: GPL-2.0-or-later
# Stand-in GPUs for the test cluster (tests/cluster up --fake-gpus N; docs/gpu.md, "Tests without
# a GPU"). Sourced by tests/cluster and by the GPU tests. Per node nK, under DIR/gpu/nK/:
#   libnvidia-ml.so.1   a link to the scripted NVML (tests/gpu/libnvml-standin.so); the
#                       plugstack's nvml= names it (nvml=DIR/gpu/%n/libnvidia-ml.so.1), so that
#                       removing it makes a node without NVML
#   nvml.conf           its script (JS_NVML_STANDIN in that slurmd's environment: the relay, a
#                       child of slurmstepd, inherits it), read at each step's nvmlInit
#   powercap/           a scripted powercap tree (powercap=DIR/gpu/%n/powercap): one package
#                       zone, intel-rapl:0, whose energy_uj a test writes
# Slurm gives the GPUs: gres.conf names N device files, DIR/gpu/dev/nvidia0.. (character
# devices of NVIDIA's major, 195, as slurmd requires; nothing opens them, and TaskPlugin=task/none
# constrains no device), so that SLURM_STEP_GPUS and SLURM_JOB_GPUS are Slurm's own, and two
# jobs sharing a node get different GPUs.

# fake_gpu_script NODE N: the default script, GPU i of node nK: GPU-nK-i, minor i,
# SM utilization 10 * (i + 1) + K, memory (i + 1) GiB of 80 GiB, 100 + i W, energy +400 mJ a read
fake_gpu_script() {
  local node=$1 n=$2 i k=${1#n}
  for i in $(seq 0 $((n - 1))); do
    echo "gpu uuid=GPU-$node-$i name=H200-standin minor=$i mem_total=85899345920 mem_used=$(( (i + 1) << 30 ))" \
         "util_sm=$(( 10 * (i + 1) + k )) util_mem=$(( 5 * (i + 1) )) power=$(( 100000 + 1000 * i )) energy=1000+400"
  done
}

# fake_gpus_setup DIR N NODES...: the nodes' stand-ins, trees, device files and gres.conf
fake_gpus_setup() {
  local d=$1 n=$2 standin=$3 node; shift 3
  mkdir -p "$d/gpu/dev"
  for i in $(seq 0 $((n - 1))); do rm -f "$d/gpu/dev/nvidia$i"; mknod "$d/gpu/dev/nvidia$i" c 195 "$i"; done
  for node in "$@"; do
    mkdir -p "$d/gpu/$node/powercap/intel-rapl:0"
    ln -sf "$standin" "$d/gpu/$node/libnvidia-ml.so.1"
    fake_gpu_script "$node" "$n" > "$d/gpu/$node/nvml.conf"
    echo package-0 > "$d/gpu/$node/powercap/intel-rapl:0/name"
    echo 0 > "$d/gpu/$node/powercap/intel-rapl:0/energy_uj"
    echo 262143328850 > "$d/gpu/$node/powercap/intel-rapl:0/max_energy_range_uj"
  done
  { echo "# stand-in GPUs (tests/cluster up --fake-gpus $n)"; echo "AutoDetect=off"
    echo "Name=gpu File=$d/gpu/dev/nvidia[0-$((n - 1))]"; } > "$d/slurm/gres.conf"
}

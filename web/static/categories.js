// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: the categories of the runtime share (docs/profile-format.md), the file
 * access modes and the edge kinds, with their colours: one list for the graph, the legend,
 * the pies and the bars. */

export const CATS = [
  { key: 'compute_ns', label: 'Computation', color: '#a99cd6' },
  { key: 'mpi_p2p_ns', label: 'MPI point-to-point', color: '#d62728' },
  { key: 'mpi_coll_ns', label: 'MPI collectives', color: '#f08080' },
  { key: 'io_posix_ns', label: 'I/O POSIX', color: '#e3b505' },
  { key: 'io_stdio_ns', label: 'I/O stdio', color: '#f6dc73' },
  { key: 'io_mpiio_ns', label: 'I/O MPI-IO', color: '#a67c00' },
  { key: 'mpi_setup_ns', label: 'MPI init/finalize', color: '#8c564b' },
  { key: 'cpu_wait_ns', label: 'Waiting for a CPU', color: '#7f7f7f' },
  { key: 'idle_ns', label: 'Idle (no CPU, no call)', color: '#e8e8e8' },
];
export const NO_PROFILE = '#d0d4da';
export const MODES = [
  { key: 'r', label: 'read-only', color: '#cfe8cf', border: '#3b8a3b' },
  { key: 'rw', label: 'read-write', color: '#fde2b8', border: '#b86e00' },
  { key: 'w', label: 'write-only', color: '#cfe0f5', border: '#2f5fb3' },
];
export const EDGE_KINDS = [
  { key: 'scheduler', label: 'scheduler dependency', style: 'solid', color: '#222' },
  { key: 'time', label: 'start after end', style: 'dotted', color: '#666' },
  { key: 'file', label: 'file written → read', style: 'dashed', color: '#2f5fb3' },
];
export function shares(rt) {
  if (!rt) return null;
  const v = CATS.map(c => Math.max(0, Number(rt[c.key]) || 0));
  const sum = v.reduce((a, b) => a + b, 0);
  return sum > 0 ? v.map(x => x / sum) : null;
}

/* A hard-stop left-to-right gradient: the runtime share as a stacked bar across the box. */
export function gradient(sh) {
  if (!sh) return { colors: NO_PROFILE + ' ' + NO_PROFILE, stops: '0 100' };
  const colors = [], stops = [];
  let acc = 0;
  CATS.forEach((c, i) => {
    if (sh[i] <= 0) return;
    colors.push(c.color, c.color);
    stops.push((acc * 100).toFixed(2), ((acc + sh[i]) * 100).toFixed(2));
    acc += sh[i];
  });
  return { colors: colors.join(' '), stops: stops.join(' ') };
}

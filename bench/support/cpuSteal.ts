import fs from 'node:fs';

/**
 * CPU time the hypervisor gave to other guests while a suite ran (the `steal` column of
 * /proc/stat). On a shared VM it changes a suite's figures by more than most code changes
 * do: the same host-call suite ran at 1,261 and 4,958 calls/s within minutes, with 23 %
 * and ~0 % steal. Printed with every suite so a reader can tell a slow machine from slow
 * code. Linux only; elsewhere (or without /proc) there is no row.
 */
export interface CpuTimes {
  steal: number;
  total: number;
}

export function readCpuTimes(): CpuTimes | null {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal [guest guest_nice, already counted in user/nice]
    if (fields.length < 8 || fields.some((n) => !Number.isFinite(n))) return null;
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    return { steal: fields[7]!, total };
  } catch {
    return null;
  }
}

/** The share of all CPU time between two readings that was stolen, in percent (null when unknown). */
export function stealPercent(before: CpuTimes | null, after: CpuTimes | null): number | null {
  if (!before || !after || after.total <= before.total) return null;
  return (100 * (after.steal - before.steal)) / (after.total - before.total);
}

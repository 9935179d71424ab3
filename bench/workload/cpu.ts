/**
 * CPU used by the bench's processes over a phase, in cores (CPU seconds ÷ wall seconds), so a
 * figure can say which process was saturated: this one (the HTTP API, every handler and poller
 * run here, on one event loop) or DynamoDB Local's JVM. Linux: /proc/<pid>/stat; elsewhere the
 * JVM's share is unknown (NaN).
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's utime/stime (USER_HZ, 100 on every mainstream Linux build). */
const USER_HZ = 100;

/** CPU seconds (user + system) of `pid` so far, or NaN when /proc cannot tell. */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, so split after its closing paren).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / USER_HZ; // utime, stime (fields 14 and 15)
  } catch {
    return Number.NaN;
  }
}

export interface CpuMeter {
  /** Cores used since the meter started: this process and the JVM. */
  read(): { node: number; jvm: number; seconds: number };
}

export function meterCpu(jvmPid: number): CpuMeter {
  const wall0 = performance.now();
  const node0 = process.cpuUsage();
  const jvm0 = cpuSecondsOf(jvmPid);
  return {
    read() {
      const seconds = (performance.now() - wall0) / 1000;
      const node = process.cpuUsage(node0);
      return { node: (node.user + node.system) / 1e6 / seconds, jvm: (cpuSecondsOf(jvmPid) - jvm0) / seconds, seconds };
    },
  };
}

/**
 * Cores a phase used (CPU s ÷ wall s) in this process (API, handlers and pollers on one event loop)
 * and in DynamoDB Local's JVM, so a figure can say which was saturated. The JVM's is NaN off Linux.
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

/** `read()`: the cores used since the meter started, by this process and by the JVM. */
export function meterCpu(jvmPid: number) {
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

/**
 * High-resolution time for range keys: nanoseconds since the Unix epoch, from a clock that never
 * goes backwards (nor repeats) within a process. Wall-clock anchored once, then advanced by the
 * monotonic `process.hrtime`, so an NTP step cannot reorder a process's own posts.
 */
const anchorWallNs = BigInt(Date.now()) * 1_000_000n;
const anchorMono = process.hrtime.bigint();
let last = 0n;

export function nowTicks(): bigint {
  const t = anchorWallNs + (process.hrtime.bigint() - anchorMono);
  last = t > last ? t : last + 1n;
  return last;
}

/**
 * Ticks of an RFC 3339 timestamp, keeping up to 9 fractional digits (`Date.parse` alone would
 * truncate to milliseconds). Returns undefined for anything `Date.parse` rejects.
 */
export function ticksFromIso(iso: string): bigint | undefined {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return undefined;
  const fraction = /\.(\d+)/.exec(iso)?.[1] ?? '';
  const subMsNs = BigInt((fraction.slice(3, 9) || '0').padEnd(6, '0'));
  return BigInt(ms) * 1_000_000n + (ms >= 0 ? subMsNs : -subMsNs);
}

/** RFC 3339 with nanoseconds, UTC, e.g. `2026-11-22T18:30:01.123456789Z`. */
export function isoFromTicks(ticks: bigint): string {
  const ms = ticks / 1_000_000n;
  const base = new Date(Number(ms)).toISOString(); // ...ss.mmmZ
  const subMs = (ticks % 1_000_000n).toString().padStart(6, '0');
  return `${base.slice(0, -1)}${subMs}Z`;
}

/** The UTC day (`YYYY-MM-DD`) of server ticks. */
export const utcDayOf = (ticks: bigint): string => new Date(Number(ticks / 1_000_000n)).toISOString().slice(0, 10);

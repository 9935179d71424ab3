/** Milliseconds, or undefined for `off`. Accepts e.g. `500ms`, `90s`, `15m`, `24h`, `30d`. */
export function parseDuration(raw: string): number | undefined {
  const text = raw.trim().toLowerCase();
  if (text === 'off') return undefined;
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  if (!match) throw new Error(`expected a duration like 90s, 24h, 30d or "off", got "${raw}"`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'ms' | 's' | 'm' | 'h' | 'd'];
  const ms = Number(match[1]) * unit;
  if (ms <= 0) throw new Error(`duration must be positive, got "${raw}"`);
  return ms;
}

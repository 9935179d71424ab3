/** Benchmark results: one row per figure, printed as a markdown table and saved as JSON. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname } from 'node:path';

export interface Figure {
  readonly scenario: string;
  readonly metric: string;
  readonly value: number;
  readonly unit: string;
  /** The target, as text (e.g. "≤ 1.2"), when the figure has one. */
  readonly target?: string;
  /** Whether the target is met; undefined when there is no target. */
  readonly met?: boolean;
  readonly note?: string;
}

export function machine() {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    date: new Date().toISOString(),
  };
}

export function toMarkdown(figures: readonly Figure[]): string {
  const lines = ['| scenario | metric | value | target | met |', '|---|---|---:|---|---|'];
  for (const f of figures) {
    const met = f.met === undefined ? '' : f.met ? 'yes' : '**no**';
    const value = Number.isFinite(f.value) ? `${f.value} ${f.unit}`.trim() : 'n/a';
    lines.push(`| ${f.scenario} | ${f.metric}${f.note ? ` (${f.note})` : ''} | ${value} | ${f.target ?? ''} | ${met} |`);
  }
  return lines.join('\n');
}

export function save(file: string, figures: readonly Figure[], extra: Record<string, unknown> = {}): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ machine: machine(), ...extra, figures }, null, 2)}\n`);
}

/** A one-line progress display on stderr (plain lines when not a terminal, e.g. in CI logs). */
export function progress(text: string): void {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${text}`);
  else process.stderr.write(`${text}\n`);
}

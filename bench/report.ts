/** Benchmark results: one row per figure, printed as a markdown table and saved as JSON (a full run's table also as markdown). */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/** A scenario's figure maker: `fig(metric, value, unit, { target, met, note })`. */
export const figureOf =
  (scenario: string) =>
  (metric: string, value: number, unit: string, more: Partial<Figure> = {}): Figure => ({ scenario, metric, value, unit, ...more });

/** A target and whether `value` meets it, the bound written once: `...atLeast(ratio, 0.85)`. */
export const atLeast = (value: number, bound: number) => ({ target: `≥ ${bound}`, met: value >= bound });
/** `unit` follows the bound in the target ("≤ 1.05 × min"). */
export const atMost = (value: number, bound: number, unit = '') => ({ target: `≤ ${bound}${unit && ` ${unit}`}`, met: value <= bound });
/** An exact target (`want`), met when `value` is it (or when `ok` says so). */
export const exactly = (value: number, want: number, ok = value === want) => ({ target: String(want), met: ok });

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

/** What bench/results/*.json hold. */
export interface Results {
  readonly machine: ReturnType<typeof machine>;
  readonly totalSeconds?: number;
  readonly durations?: Record<string, number>;
  readonly figures: readonly Figure[];
}

/** The run in one line: the machine, when, and how long each scenario took. */
export function runLine({ machine: m, totalSeconds, durations }: Results): string {
  const each = Object.entries(durations ?? {}).map(([k, v]) => `${k} ${v} s`);
  const took = durations ? ` · scenarios took ${totalSeconds} s (${each.join(', ')})` : '';
  return `${m.cores} cores · ${m.cpu} · ${m.memoryGiB} GiB · Node ${m.node} · ${m.date}${took}`;
}

export function save(file: string, results: Results): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

/** bench/results/<name>.json → <name>.md beside it (the run's line and its table, which docs/benchmarks.md links to); returns its path. */
export function writeTableBeside(jsonFile: string): string {
  const results = JSON.parse(readFileSync(jsonFile, 'utf8')) as Results;
  const file = jsonFile.replace(/\.json$/, '.md');
  writeFileSync(file, `# Latest full run of \`npm run bench\`\n\n${runLine(results)}\n\n${toMarkdown(results.figures)}\n`);
  return file;
}

/** A one-line progress display on stderr (plain lines when not a terminal, e.g. in CI logs). */
export function progress(text: string): void {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${text}`);
  else process.stderr.write(`${text}\n`);
}

/**
 * docs/benchmarks.md shows the latest full run's figures: `npm run bench` rewrites the table between
 * its markers from the results file it just saved, so the page never shows figures of an older run
 * than the chart beside it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Figure, toMarkdown } from './report.js';

export const benchDoc = resolve(import.meta.dirname, '..', 'docs', 'benchmarks.md');
const START = '<!-- bench:start (written by npm run bench) -->';
const END = '<!-- bench:end -->';

interface Results {
  machine: { cores: number; cpu: string; memoryGiB: number; node: string; date: string };
  totalSeconds?: number;
  durations?: Record<string, number>;
  figures: Figure[];
}

/** The doc's text with the results of `resultsFile` between the markers. */
export function withBenchTable(doc: string, results: Results): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${benchDoc} has no ${START} … ${END} section`);
  const m = results.machine;
  const took = results.durations ? ` · scenarios took ${results.totalSeconds} s (${Object.entries(results.durations).map(([k, v]) => `${k} ${v} s`).join(', ')})` : '';
  const heading = `Latest run (${m.cores} cores · ${m.cpu} · ${m.memoryGiB} GiB · Node ${m.node} · ${m.date}${took}):`;
  return `${doc.slice(0, start + START.length)}\n${heading}\n\n${toMarkdown(results.figures)}\n${doc.slice(end)}`;
}

export function writeBenchTable(resultsFile: string): string {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as Results;
  writeFileSync(benchDoc, withBenchTable(readFileSync(benchDoc, 'utf8'), results));
  return benchDoc;
}

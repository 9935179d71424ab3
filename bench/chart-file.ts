/** The chart's one side effect: bench/results/<name>.json → <name>.svg beside it. */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { chartSvg } from './chart.js';

/**
 * Writes the chart of a saved results file next to it and returns the SVG's path. When the chart
 * cannot be drawn (a figure is missing), the old SVG is removed before the error is rethrown, so
 * the README never shows a chart of an earlier run beside newer figures.
 */
export function writeChartBeside(jsonFile: string): string {
  if (!jsonFile.endsWith('.json')) throw new Error(`bench chart: expected a .json results file, got ${jsonFile}`);
  const svgFile = jsonFile.replace(/\.json$/, '.svg');
  try {
    writeFileSync(svgFile, chartSvg(JSON.parse(readFileSync(jsonFile, 'utf8'))));
  } catch (error) {
    rmSync(svgFile, { force: true });
    throw error;
  }
  return svgFile;
}

/**
 * `npm run bench:chart [-- results.json]`: redraws the chart and the table of saved results (default
 * bench/results/latest.json) without running the bench, e.g. after changing bench/chart*.ts.
 */
import { resolve } from 'node:path';
import { writeChartBeside } from './chart.js';
import { writeTableBeside } from './report.js';

const file = resolve(process.argv[2] ?? resolve(import.meta.dirname, 'results', 'latest.json'));
console.log(`saved ${writeTableBeside(file)}`);
console.log(`saved ${await writeChartBeside(file)}`);

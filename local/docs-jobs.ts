/**
 * The job kinds of each lane in docs/lanes.md, generated from the job registry
 * (functions/services/jobs/jobs.ts): `npm run docs` rewrites it between its markers;
 * test/unit/docs.test.ts fails when the page is stale, so a new kind or a kind moved to
 * another lane cannot go undocumented.
 */
import { kindsOfLane } from '../functions/services/jobs/jobs.js';
import { laneList } from '../lib/defs/lanes.js';
import type { DocSection } from './docs-markers.js';

/** The markdown table: each lane and the kinds sent to it at once (delayed jobs all go to maintenance). */
export function jobKindsTable(): string {
  const rows = laneList.map(
    (lane) =>
      `| \`${lane.id}\` | ${kindsOfLane(lane.id)
        .map((kind) => `\`${kind}\``)
        .join(', ')} |`,
  );
  return ['| lane | job kinds |', '|---|---|', ...rows].join('\n');
}

export const jobKindsSection: DocSection = { page: 'docs/lanes.md', name: 'job-kinds', body: jobKindsTable };

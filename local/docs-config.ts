/**
 * The settings table in docs/configuration.md, generated from the definitions the code reads: the
 * functions' config keys (lib/defs/config.ts configKeys), the stack-only keys
 * (lib/defs/deployment.ts) and each job lane's concurrency key (lib/defs/event-sources.ts).
 * `npm run docs` rewrites it between its markers; test/unit/docs.test.ts fails when the
 * file is stale, so a new setting cannot go undocumented.
 */
import { configKeys } from '../lib/defs/config.js';
import { deploymentContextKeys, jwtContextKeys, laneConcurrencyDescription } from '../lib/defs/deployment.js';
import { eventSources } from '../lib/defs/event-sources.js';
import type { DocSection } from './docs-markers.js';

const code = (values: readonly (string | number)[]) => values.map((v) => `\`${v}\``).join(', ');
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The markdown table: the issuer first, then every function setting, then the stack-only ones. */
export function settingsTable(): string {
  const row = (key: string, shownDefault: string, meaning: string) => `| ${key} | ${cell(shownDefault)} | ${cell(meaning)} |`;
  const lanes = eventSources.flatMap((s) => (s.kind === 'sqs' && s.maxConcurrency ? [s.maxConcurrency] : []));
  const rows = [
    row(`${code(jwtContextKeys.contextKeys)} (stack only)`, jwtContextKeys.shownDefault, jwtContextKeys.description),
    ...Object.values(configKeys).map((k) =>
      row(`\`${k.contextKey}\` (\`${k.envVar}\`)`, 'shownDefault' in k && k.shownDefault ? k.shownDefault : `\`${k.default}\``, k.description),
    ),
    row(`${code(lanes.map((l) => l.contextKey))} (stack only)`, code(lanes.map((l) => l.default)), laneConcurrencyDescription),
    ...Object.values(deploymentContextKeys).map((k) =>
      row(`\`${k.contextKey}\` (stack only)`, 'shownDefault' in k && k.shownDefault ? k.shownDefault : `\`${k.default}\``, k.description),
    ),
  ];
  return ['| key | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

export const settingsSection: DocSection = { page: 'docs/configuration.md', name: 'settings', body: settingsTable };

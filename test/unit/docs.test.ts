/**
 * The documentation a newcomer reads: a short README that links every page of docs/, links that
 * resolve, and every generated section — routes, rate classes, settings, item kinds, job kinds —
 * as the code has it (local/docs.ts lists them; `npm run docs` rewrites them).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docSections, generatedPages, withSectionsOf } from '../../local/docs.js';
import { settingsTable } from '../../local/docs-config.js';
import { pagePath } from '../../local/docs-markers.js';
import { configKeys } from '../../lib/defs/config.js';
import { deploymentContextKeys } from '../../lib/defs/deployment.js';

const root = resolve(import.meta.dirname, '..', '..');
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
const pages = readdirSync(resolve(root, 'docs')).filter((f) => f.endsWith('.md'));

/** Relative link targets (no scheme, no bare anchor) of a markdown file. */
const linksOf = (text: string) => [...text.matchAll(/\]\(([^)#\s]+)(#[^)\s]*)?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/.test(t));

describe('docs', () => {
  it('keep the README short enough to read in ten minutes', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('link every page of docs/ from the README', () => {
    const linked = new Set(linksOf(readme).map((l) => l.replace(/^docs\//, '')));
    expect(pages.filter((p) => !linked.has(p))).toEqual([]);
  });

  it('have no link to a file that does not exist', () => {
    const broken: string[] = [];
    for (const file of ['README.md', ...pages.map((p) => `docs/${p}`)]) {
      for (const target of linksOf(readFileSync(resolve(root, file), 'utf8'))) {
        if (!existsSync(resolve(root, dirname(file), target))) broken.push(`${file} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('show every generated section as the code has it now (npm run docs rewrites them)', () => {
    expect(docSections.map((d) => `${d.page} ${d.name}`)).toEqual(
      expect.arrayContaining([
        'docs/api.md routes',
        'docs/security.md rate-classes',
        'docs/configuration.md settings',
        'docs/data-model.md items:graph',
        'docs/lanes.md job-kinds',
      ]),
    );
    for (const page of generatedPages) {
      const text = readFileSync(pagePath(page), 'utf8');
      expect(text, `${page} is stale: run npm run docs`).toBe(withSectionsOf(page, text));
    }
  });

  it('show every setting the code reads, with its default', () => {
    // The table is the definitions': every key a function or the stack reads has a row.
    for (const key of [
      ...Object.values(configKeys).map((k) => k.contextKey),
      ...Object.values(deploymentContextKeys).map((k) => k.contextKey),
      'jwtIssuer',
      'fanoutMaxConcurrency',
    ]) {
      expect(settingsTable(), key).toContain(`\`${key}\``);
    }
  });
});

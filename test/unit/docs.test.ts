/**
 * The documentation a newcomer reads: a short README that links every page of docs/, links that
 * resolve, and the API route table and the settings table as the code has them (regenerate with
 * `npm run docs:routes`, `npm run docs:config` and `npm run docs:items`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiDoc, securityDoc, withRateClassTable, withRouteTable } from '../../local/docs-routes.js';
import { configDoc, settingsTable, withSettingsTable } from '../../local/docs-config.js';
import { dataModelDoc, withItemTables } from '../../local/docs-items.js';
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

  it('show the route table the code has (npm run docs:routes rewrites it)', () => {
    const text = readFileSync(apiDoc, 'utf8');
    expect(text).toBe(withRouteTable(text));
  });

  it('show each rate class with the routes that declare it (npm run docs:routes rewrites the table)', () => {
    const text = readFileSync(securityDoc, 'utf8');
    expect(text).toBe(withRateClassTable(text));
  });

  it('show every kind of item the model declares, and who writes it (npm run docs:items rewrites the tables)', () => {
    const text = readFileSync(dataModelDoc, 'utf8');
    expect(text).toBe(withItemTables(text));
  });

  it('show every setting the code reads, with its default (npm run docs:config rewrites the table)', () => {
    const text = readFileSync(configDoc, 'utf8');
    expect(text).toBe(withSettingsTable(text));
    // The table is the definitions': every key a function or the stack reads has a row.
    for (const key of [...Object.values(configKeys).map((k) => k.contextKey), ...Object.values(deploymentContextKeys).map((k) => k.contextKey), 'jwtIssuer', 'fanoutMaxConcurrency']) {
      expect(settingsTable(), key).toContain(`\`${key}\``);
    }
  });
});

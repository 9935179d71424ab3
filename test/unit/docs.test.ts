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

  it("show the code's layout in docs/architecture.md: every folder of functions/ and the top level, nothing that is gone", () => {
    const text = readFileSync(resolve(root, 'docs/architecture.md'), 'utf8');
    const block = /## Layout\n\n```\n([\s\S]*?)```/.exec(text)![1]!;
    const listed = [...block.matchAll(/^(\S+)\s/gm)].map((m) => m[1]!.replace(/\/$/, ''));
    const folders = (dir: string): string[] =>
      readdirSync(resolve(root, dir), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .flatMap((e) => [`${dir}/${e.name}`, ...folders(`${dir}/${e.name}`)]);
    const expected = ['bin', 'lib', 'lib/constructs', 'lib/defs', 'local', 'local/console', 'test', 'bench', 'client', ...folders('functions')];
    const missing = expected.filter((f) => f !== 'functions/services/migrations/v3' && !listed.some((l) => l === f || l.startsWith(`${f}/`)));
    expect(missing, 'folders docs/architecture.md does not describe').toEqual([]);
    expect(
      listed.filter((f) => !existsSync(resolve(root, f))),
      'paths docs/architecture.md names that do not exist',
    ).toEqual([]);
  });

  it('name no two files of functions/ alike (a name says what the file holds, wherever it is)', () => {
    const files = (dir: string): string[] =>
      readdirSync(resolve(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(`${dir}/${e.name}`) : [`${dir}/${e.name}`]));
    const byName = new Map<string, string[]>();
    for (const f of files('functions')) byName.set(f.split('/').at(-1)!, [...(byName.get(f.split('/').at(-1)!) ?? []), f]);
    expect([...byName].filter(([, paths]) => paths.length > 1)).toEqual([]);
  });
});

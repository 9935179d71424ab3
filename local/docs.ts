/**
 * Every generated section of the docs, listed once: `npm run docs` rewrites them all, and
 * test/unit/docs.test.ts fails when one is stale (local/docs-markers.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { settingsSection } from './docs-config.js';
import { itemSections } from './docs-items.js';
import { jobKindsSection } from './docs-jobs.js';
import { type DocSection, pagePath, withSection } from './docs-markers.js';
import { routeSections } from './docs-routes.js';

export const docSections: readonly DocSection[] = [...routeSections, settingsSection, ...itemSections, jobKindsSection];

/** The pages that hold generated sections. */
export const generatedPages = [...new Set(docSections.map((s) => s.page))];

/** A page's text with each of its sections as the code has it now. */
export const withSectionsOf = (page: string, text: string): string => docSections.filter((s) => s.page === page).reduce(withSection, text);

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  for (const page of generatedPages) writeFileSync(pagePath(page), withSectionsOf(page, readFileSync(pagePath(page), 'utf8')));
  console.log(`wrote ${docSections.length} generated sections in ${generatedPages.join(', ')}`);
}

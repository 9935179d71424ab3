import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** A generated section of a doc page: the text between its two marker comments, replaced whole. */
export function withGeneratedSection(text: string, markers: { start: string; end: string; page: string }, body: string): string {
  const start = text.indexOf(markers.start);
  const end = text.indexOf(markers.end);
  if (start < 0 || end < start) throw new Error(`${markers.page} has no ${markers.start} … ${markers.end} section`);
  return `${text.slice(0, start + markers.start.length)}\n${body}\n${text.slice(end)}`;
}

/** A page's generated section, rewritten by running the generator's own module (`npx tsx local/docs-….ts`). */
export function generatedSection(section: { page: string; file: string; start: string; end: string }, body: () => string, moduleFile: string) {
  const rewrite = (text: string) => withGeneratedSection(text, section, body());
  if (process.argv[1] && resolve(process.argv[1]) === resolve(moduleFile)) {
    writeFileSync(section.file, rewrite(readFileSync(section.file, 'utf8')));
    console.log(`wrote the generated section of ${section.page}`);
  }
  return rewrite;
}

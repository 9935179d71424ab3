// tsc does not copy hand-written .d.ts files to its output, and dist/index.d.ts imports
// ./schema.js: put the generated types next to it.
import { copyFileSync } from 'node:fs';

copyFileSync(new URL('../src/schema.d.ts', import.meta.url), new URL('../dist/schema.d.ts', import.meta.url));

/** `npm run client:generate`: rewrites client/src/schema.d.ts from the server's OpenAPI document. */
import { readFile, writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { generateSchemaTypes, SCHEMA_TYPES_FILE } from './schema-types.js';

const next = await generateSchemaTypes();
const previous = await readFile(SCHEMA_TYPES_FILE, 'utf8').catch(() => undefined);
const name = relative(process.cwd(), SCHEMA_TYPES_FILE);
if (previous === next) {
  console.log(`${name} is up to date`);
} else {
  await writeFile(SCHEMA_TYPES_FILE, next);
  console.log(`wrote ${name}`);
}

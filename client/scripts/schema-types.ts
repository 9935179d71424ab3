/**
 * Builds the TypeScript types of the API (client/src/schema.d.ts) in memory: the OpenAPI document
 * the server serves at `/openapi.json`, built in-process, run through openapi-typescript.
 * The document's builder is the one thing imported from the server, so routes added there reach
 * the client by re-running `npm run client:generate`.
 */
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { openApiDocument } from '../../functions/http/openapi-document.js';

/** Where the generated types are committed. */
export const SCHEMA_TYPES_FILE = fileURLToPath(new URL('../src/schema.d.ts', import.meta.url));

/** The command that rewrites SCHEMA_TYPES_FILE (named in the stale-types test's failure). */
export const GENERATE_COMMAND = 'npm run client:generate';

const HEADER = `/**
 * Generated from the OpenAPI document (functions/http/openapi-document.ts) by openapi-typescript.
 * Do not edit: run \`${GENERATE_COMMAND}\` after changing the API.
 */

`;

/** The contents schema.d.ts should have for the API as it is now. */
export async function generateSchemaTypes(): Promise<string> {
  const document = openApiDocument() as unknown as OpenAPI3;
  // silent: openapi-typescript's progress lines would clutter test output.
  // emptyObjectsUnknown: a bare `{ type: object }` (e.g. rollup points) reads as Record<string, unknown>,
  // not Record<string, never>, which would forbid reading any field.
  // defaultNonNullable off: a request field the server defaults (a ranked feed's `windowHours`, its
  // `heuristics`) stays optional, as the document's `required` lists say; a response lists its fields as required itself.
  const ast = await openapiTS(document, { silent: true, emptyObjectsUnknown: true, defaultNonNullable: false });
  return HEADER + astToString(ast);
}

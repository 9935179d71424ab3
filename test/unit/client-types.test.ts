/**
 * client/src/schema.d.ts is generated from the OpenAPI document the server builds: regenerating
 * it in memory must give the committed file, so a route or schema changed without regenerating
 * fails here with the command that fixes it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATE_COMMAND, generateSchemaTypes, SCHEMA_TYPES_FILE } from '../../client/scripts/schema-types.js';

describe('client/src/schema.d.ts', () => {
  it('matches the OpenAPI document the server builds now', async () => {
    const committed = readFileSync(SCHEMA_TYPES_FILE, 'utf8');
    const fresh = await generateSchemaTypes();
    // Compare booleans: a diff of two 1,000-line files would bury the instruction.
    expect(committed === fresh, `client/src/schema.d.ts is stale: run \`${GENERATE_COMMAND}\` and commit the result`).toBe(true);
  });

  it('types every route of the document (the generator read it, not an empty one)', async () => {
    const fresh = await generateSchemaTypes();
    for (const route of ['"/feed"', '"/users/{userId}/followers"', '"/activities/{id}"']) expect(fresh).toContain(route);
  });
});

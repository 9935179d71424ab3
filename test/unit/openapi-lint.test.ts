/**
 * Redocly's `recommended` ruleset on the generated document (@redocly/openapi-core, in memory):
 * no errors, no warnings. Fix the document (functions/http/openapi-document.ts, operations.ts), not the rules.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../functions/http/openapi-document.js';

describe('the OpenAPI document under Redocly’s recommended rules', () => {
  it('has no errors and no warnings', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(openApiDocument()), absoluteRef: 'openapi.json', config });
    const found = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`);
    expect(found).toEqual([]);
  });

  it('is live: a document missing what the rules ask for is flagged', async () => {
    const { info: _info, servers: _servers, ...rest } = openApiDocument();
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify({ ...rest, info: { title: 't', version: '1' } }), absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => p.ruleId)).toEqual(expect.arrayContaining(['no-empty-servers', 'info-license']));
  });
});

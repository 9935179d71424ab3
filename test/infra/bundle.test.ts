/**
 * The shipped bundle is the tested bundle: synthesize exactly as `cdk synth` does into cdk.out,
 * then load a function's bundle from there and invoke it against the local stack's DynamoDB.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { App } from 'aws-cdk-lib';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { profileKey } from '../../functions/model/profile.js';
import { buildApp } from '../../lib/app.js';
import type { FunctionId } from '../../lib/defs/index.js';
import { uid } from '../support/ids.js';
import { doc, stack } from '../support/local.js';

const cdkOut = resolve(import.meta.dirname, '../../cdk.out');
let bundleDirs: Record<string, string>;

beforeAll(() => {
  const app = new App({ outdir: cdkOut });
  const tickfeed = buildApp(app);
  const assembly = app.synth();
  const template = assembly.getStackByName(tickfeed.stackName).template as {
    Resources: Record<string, { Type: string; Properties: { Code?: { S3Key?: string } } }>;
  };
  bundleDirs = {};
  for (const [logicalId, resource] of Object.entries(template.Resources)) {
    const key = resource.Properties?.Code?.S3Key;
    if (resource.Type === 'AWS::Lambda::Function' && key) {
      bundleDirs[logicalId] = join(cdkOut, `asset.${key.replace(/\.zip$/, '')}`);
    }
  }
}, 180_000);

function bundleOf(fn: FunctionId): string {
  const prefix = `${fn[0]!.toUpperCase()}${fn.slice(1)}Function`;
  const dir = Object.entries(bundleDirs).find(([id]) => id.startsWith(prefix))?.[1];
  expect(dir, `bundle of ${fn}`).toBeDefined();
  return join(dir!, 'index.mjs');
}

function httpEvent(routeKey: string, sub: string): APIGatewayProxyEventV2WithJWTAuthorizer {
  const [method, path] = routeKey.split(' ') as [string, string];
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: '',
    headers: {},
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'bundle-test',
      authorizer: { principalId: '', integrationLatency: 0, jwt: { claims: { sub }, scopes: [] } },
      domainName: 'local',
      domainPrefix: 'local',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: uid('req'),
      routeKey,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
  };
}

describe('bundles in cdk.out', () => {
  it('are self-contained ESM files of modest size', () => {
    const file = bundleOf('me');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).size).toBeLessThan(2 * 1024 * 1024);
  });

  it('the me bundle answers from DynamoDB Local exactly like the source handler', async () => {
    const user = uid('bundle');
    await doc.send(
      new PutCommand({ TableName: stack.tableNames.graph, Item: { ...profileKey(user), followers: 7, following: 3 } }),
    );
    const mod = (await import(pathToFileURL(bundleOf('me')).href)) as {
      handler: (e: unknown) => Promise<APIGatewayProxyStructuredResultV2>;
    };
    const result = await mod.handler(httpEvent('GET /me', user));
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body!)).toEqual({ userId: user, followers: 7, following: 3 });
  });
});

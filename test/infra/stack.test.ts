/** Template intent, one behaviour per test (no snapshots). */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventSources, functions, routes, type StreamSourceDef } from '../../lib/defs/index.js';
import { LAMBDA_NODE_MAJOR } from '../../lib/defs/runtime.js';
import { synth } from './synth.js';

let template: Template;
beforeAll(() => {
  template = synth().template;
}, 180_000);

/** Logical id of the Lambda function built from a function definition. */
function functionLogicalId(fnId: string): string {
  const name = `${fnId[0]!.toUpperCase()}${fnId.slice(1)}Function`;
  const ids = Object.keys(template.findResources('AWS::Lambda::Function')).filter((id) => id.startsWith(name));
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

function policyStatementsOf(fnId: string): { Action: string | string[]; Resource: unknown }[] {
  const roleRef = template.toJSON().Resources[functionLogicalId(fnId)].Properties.Role['Fn::GetAtt'][0];
  const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) =>
    (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleRef),
  );
  return policies.flatMap((p) => p.Properties.PolicyDocument.Statement);
}

const actionsOn = (fnId: string, tableLogicalPrefix: string) =>
  policyStatementsOf(fnId)
    .filter((s) => JSON.stringify(s.Resource).includes(tableLogicalPrefix))
    .flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

describe('tables', () => {
  it('turns on point-in-time recovery and on-demand billing for every table', () => {
    const tables = template.findResources('AWS::DynamoDB::Table');
    expect(Object.keys(tables).length).toBeGreaterThanOrEqual(3);
    for (const t of Object.values(tables)) {
      expect(t.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
      expect(t.Properties.BillingMode).toBe('PAY_PER_REQUEST');
    }
  });

  it('gives exactly one table a stream, with new and old images', () => {
    const streaming = Object.values(template.findResources('AWS::DynamoDB::Table')).filter((t) => t.Properties.StreamSpecification);
    expect(streaming).toHaveLength(1);
    expect(streaming[0]!.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
  });

  it('gives no table an index: every read is a Query on one partition (byAuthor is gone)', () => {
    for (const t of Object.values(template.findResources('AWS::DynamoDB::Table'))) {
      expect(t.Properties.GlobalSecondaryIndexes).toBeUndefined();
    }
    const policies = JSON.stringify(template.findResources('AWS::IAM::Policy'));
    expect(policies).not.toContain('/index/');
  });

  it('enables TTL on expiresAt for the feed table', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'rk', KeyType: 'RANGE' },
      ],
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
  });
});

describe('queues', () => {
  it('redrives fan-out jobs to a DLQ after 5 receives', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: Match.objectLike({ maxReceiveCount: 5 }),
      SqsManagedSseEnabled: true,
    });
  });

  it('denies non-TLS access to every queue', () => {
    const policies = Object.values(template.findResources('AWS::SQS::QueuePolicy'));
    expect(policies.length).toBe(Object.keys(template.findResources('AWS::SQS::Queue')).length);
    for (const p of policies) {
      expect(p.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });
});

describe('functions', () => {
  it('run Node.js 24 (the major CI tests on, lib/defs/runtime.ts) on arm64', () => {
    expect(LAMBDA_NODE_MAJOR).toBe(24);
    for (const fn of Object.keys(functions)) {
      const props = template.toJSON().Resources[functionLogicalId(fn)].Properties;
      expect(props.Runtime).toBe('nodejs24.x');
      expect(props.Architectures).toEqual(['arm64']);
    }
  });

  it('give the me function read-only access to the graph table and nothing on the feed table', () => {
    const onGraph = actionsOn('me', 'GraphTable');
    expect(onGraph.sort()).toEqual(['dynamodb:GetItem', 'dynamodb:Query']); // the profile with its follower-count shards, the erase mark
    expect(onGraph).not.toContain('dynamodb:PutItem');
    expect(onGraph).not.toContain('dynamodb:UpdateItem');
    expect(actionsOn('me', 'FeedTable')).toEqual([]);
  });

  it('let the fan-out worker write the feed table', () => {
    expect(actionsOn('fanoutWorker', 'FeedTable')).toContain('dynamodb:BatchWriteItem');
  });

  it('give feed reads read-only access: the feed table, and the reactions of the graph table (enrich)', () => {
    const onFeed = actionsOn('feedRead', 'FeedTable');
    expect(onFeed).toContain('dynamodb:Query');
    expect(onFeed).toContain('dynamodb:GetItem');
    expect(onFeed.filter((a) => /Put|Update|Delete|Write/.test(a))).toEqual([]);
    expect(actionsOn('feedRead', 'GraphTable')).toEqual(['dynamodb:BatchGetItem', 'dynamodb:Query']); // and a returning reader's follows
  });

  it('let the graph function update the feed table (the pulled set in a follower’s home-feed head) and ask whether a followee ever posted, nothing else', () => {
    expect(actionsOn('graph', 'FeedTable').sort()).toEqual(['dynamodb:Query', 'dynamodb:UpdateItem']);
  });

  it('let the outbox send to the fan-out queue, with its URL in the environment', () => {
    const statements = policyStatementsOf('outbox');
    expect(statements.some((s) => JSON.stringify(s.Action).includes('sqs:SendMessage') && JSON.stringify(s.Resource).includes('FanoutQueue'))).toBe(true);
    const env = template.toJSON().Resources[functionLogicalId('outbox')].Properties.Environment.Variables;
    expect(JSON.stringify(env.FANOUT_QUEUE_URL)).toContain('FanoutQueue');
  });
});

describe('event sources', () => {
  it('report partial batch failures on the SQS source', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      EventSourceArn: Match.objectLike({ 'Fn::GetAtt': Match.arrayWith([Match.stringLikeRegexp('^FanoutQueue')]) }),
    });
  });

  it('bound stream retries, bisect failed batches and send exhausted ones to the on-failure queue', () => {
    const streamSources = eventSources.filter((s) => s.kind === 'stream');
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).filter((m) => m.Properties.StartingPosition);
    expect(mappings).toHaveLength(streamSources.length);
    for (const m of mappings) {
      expect(m.Properties.BisectBatchOnFunctionError).toBe(true);
      expect(m.Properties.MaximumRetryAttempts).toBeGreaterThan(0);
      expect(m.Properties.MaximumRecordAgeInSeconds).toBeGreaterThan(0);
      expect(m.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
      expect(JSON.stringify(m.Properties.DestinationConfig.OnFailure)).toContain('StreamFailuresQueue');
    }
  });

  it('give the rollups consumer its tumbling window (it writes once per window and shard), and the outbox none', () => {
    const mappingOf = (fn: string) =>
      Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).find((m) =>
        JSON.stringify(m.Properties.FunctionName).includes(functionLogicalId(fn)),
      );
    const seconds = eventSources.find((s): s is StreamSourceDef => s.kind === 'stream' && s.fn === 'rollups')?.tumblingWindowSeconds;
    expect(seconds).toBeGreaterThanOrEqual(60);
    expect(seconds).toBeLessThanOrEqual(900);
    expect(mappingOf('rollups')?.Properties.TumblingWindowInSeconds).toBe(seconds);
    expect(mappingOf('outbox')?.Properties).toBeDefined();
    expect(mappingOf('outbox')?.Properties.TumblingWindowInSeconds).toBeUndefined();
  });
});

describe('HTTP API', () => {
  it('puts the JWT authorizer on every authenticated route and on none of the public ones', () => {
    const all = Object.values(template.findResources('AWS::ApiGatewayV2::Route'));
    for (const route of routes) {
      const found = all.find((r) => r.Properties.RouteKey === `${route.method} ${route.path}`);
      expect(found, `${route.method} ${route.path}`).toBeDefined();
      expect(found!.Properties.AuthorizationType ?? 'NONE').toBe(route.auth ? 'JWT' : 'NONE');
    }
    const fallback = all.find((r) => r.Properties.RouteKey === '$default');
    expect(fallback?.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
  });

  it('trusts the stack-created Cognito pool by default', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      JwtConfiguration: Match.objectLike({ Issuer: Match.objectLike({ 'Fn::Join': Match.anyValue() }) }),
    });
  });

  it('writes JSON access logs', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      AccessLogSettings: Match.objectLike({ Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"') }),
    });
  });
});

describe('configuration', { timeout: 180_000 }, () => {
  it('trusts an external issuer from context instead of creating a pool', () => {
    const { template: t } = synth({ context: { jwtIssuer: 'https://issuer.example', jwtAudience: 'aud-1' } });
    t.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      JwtConfiguration: { Issuer: 'https://issuer.example', Audience: ['aud-1'] },
    });
    expect(Object.keys(t.findResources('AWS::Cognito::UserPool'))).toHaveLength(0);
  });

  it('refuses a malformed config value in cdk.json context, naming it', () => {
    expect(() => synth({ context: { feedTtl: 'forever' } })).toThrow(/FEED_TTL/);
  });
});

describe('two kinds of caller', { timeout: 180_000 }, () => {
  const routeWithKey = (t: Template, key: string) => Object.values(t.findResources('AWS::ApiGatewayV2::Route')).find((r) => r.Properties.RouteKey === key);

  it('requires the tickfeed/admin scope on GET /rollups/{name}, and on no route that does not declare it', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', {
      RouteKey: 'GET /rollups/{name}',
      AuthorizationType: 'JWT',
      AuthorizationScopes: ['tickfeed/admin'],
    });
    for (const route of routes) {
      const found = routeWithKey(template, `${route.method} ${route.path}`);
      expect(found?.Properties.AuthorizationScopes, `${route.method} ${route.path}`).toEqual(route.scopes ? [...route.scopes] : undefined);
    }
    // Users read their own activity window: the handler decides, not a route scope.
    expect(routeWithKey(template, 'GET /users/{userId}/activity')?.Properties.AuthorizationScopes).toBeUndefined();
  });

  it('declares the scope on a Cognito resource server (identifier tickfeed, scope admin)', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolResourceServer', {
      Identifier: 'tickfeed',
      Scopes: [Match.objectLike({ ScopeName: 'admin' })],
    });
  });

  it('gives the users’ app client no OAuth flows, scopes or callback URLs (SRP sign-in only)', () => {
    const clients = Object.values(template.findResources('AWS::Cognito::UserPoolClient'));
    const users = clients.filter((c) => !c.Properties.GenerateSecret);
    expect(users).toHaveLength(1);
    const p = users[0]!.Properties;
    expect(p.AllowedOAuthFlowsUserPoolClient).toBe(false);
    expect(p.AllowedOAuthFlows).toBeUndefined();
    expect(p.AllowedOAuthScopes).toBeUndefined();
    expect(p.CallbackURLs).toBeUndefined();
    expect(p.ExplicitAuthFlows).toContain('ALLOW_USER_SRP_AUTH');
    expect(JSON.stringify(clients)).not.toContain('example.com');
  });

  it('gives the backend a client-credentials client with a secret and the admin scope only, trusted by the authorizer', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: true,
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthFlows: ['client_credentials'],
      AllowedOAuthScopes: [{ 'Fn::Join': ['', [{ Ref: Match.stringLikeRegexp('ResourceServer') }, '/admin']] }],
      CallbackURLs: Match.absent(),
      ExplicitAuthFlows: Match.not(Match.arrayWith(['ALLOW_USER_SRP_AUTH'])),
    });
    // Cognito access tokens name their client in `client_id`: the authorizer's audience lists both.
    const clientIds = Object.keys(template.findResources('AWS::Cognito::UserPoolClient'));
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      JwtConfiguration: Match.objectLike({ Audience: Match.arrayWith(clientIds.map((id) => ({ Ref: id }))) }),
    });
    // The token endpoint the backend calls.
    expect(Object.keys(template.findResources('AWS::Cognito::UserPoolDomain'))).toHaveLength(1);
  });

  it('keeps the scope name tickfeed/admin on the route with an external issuer', () => {
    const { template: t } = synth({ context: { jwtIssuer: 'https://issuer.example', jwtAudience: 'aud-1,aud-2' } });
    expect(routeWithKey(t, 'GET /rollups/{name}')?.Properties.AuthorizationScopes).toEqual(['tickfeed/admin']);
    t.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', { JwtConfiguration: { Issuer: 'https://issuer.example', Audience: ['aud-1', 'aud-2'] } });
    expect(Object.keys(t.findResources('AWS::Cognito::UserPoolClient'))).toHaveLength(0);
  });

  it('passes PROTECTED_VERBS from context to the activities function only', () => {
    const { template: t } = synth({ context: { protectedVerbs: 'purchase,refund' } });
    const env = (fnId: string) => {
      const name = `${fnId[0]!.toUpperCase()}${fnId.slice(1)}Function`;
      const [res] = Object.entries(t.findResources('AWS::Lambda::Function')).filter(([id]) => id.startsWith(name));
      return res![1].Properties.Environment.Variables as Record<string, unknown>;
    };
    expect(env('activities').PROTECTED_VERBS).toBe('purchase,refund');
    expect(env('feedRead').PROTECTED_VERBS).toBeUndefined();
    expect(() => synth({ context: { protectedVerbs: 'Purchase' } })).toThrow(/PROTECTED_VERBS/);
  });
});

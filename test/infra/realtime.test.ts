/** Template intent for the realtime WebSocket API, one behaviour per test. */
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionList, PUSH_FAILURE_METRIC, REALTIME_ENDPOINT_ENV, REALTIME_STAGE, REALTIME_URL_ENV, realtimeRoutes } from '../../lib/defs/index.js';
import { synth } from './synth.js';

let template: Template;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let resources: Record<string, { Type: string; Properties: any }>;
beforeAll(() => {
  template = synth().template;
  resources = template.toJSON().Resources;
}, 180_000);

const pascal = (id: string) => `${id[0]!.toUpperCase()}${id.slice(1)}`;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const logicalId = (type: string, prefix: string) => {
  const ids = ofType(type)
    .map(([id]) => id)
    .filter((id) => id.startsWith(prefix));
  expect(ids, prefix).toHaveLength(1);
  return ids[0]!;
};
const fnId = (fn: string) => logicalId('AWS::Lambda::Function', `${pascal(fn)}Function`);
const envOf = (fn: string) => resources[fnId(fn)]!.Properties.Environment.Variables as Record<string, unknown>;
const realtimeApiId = () => ofType('AWS::ApiGatewayV2::Api').find(([, r]) => r.Properties.ProtocolType === 'WEBSOCKET')![0];
const realtimeRouteOf = (key: string) =>
  ofType('AWS::ApiGatewayV2::Route').find(([, r]) => r.Properties.RouteKey === key && r.Properties.ApiId.Ref === realtimeApiId())?.[1].Properties;

type Statement = { Action: string | string[]; Resource: unknown };
const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
function statementsOfRole(roleId: string): Statement[] {
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
}
const roleOf = (fn: string) => resources[fnId(fn)]!.Properties.Role['Fn::GetAtt'][0] as string;
const statementsOf = (fn: string) => statementsOfRole(roleOf(fn));

describe('the WebSocket API', () => {
  it('is one WebSocket API with a live stage that deploys itself, its URL a stack output', () => {
    expect(ofType('AWS::ApiGatewayV2::Api').filter(([, r]) => r.Properties.ProtocolType === 'WEBSOCKET')).toHaveLength(1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { ApiId: { Ref: realtimeApiId() }, StageName: REALTIME_STAGE, AutoDeploy: true });
    const url = JSON.stringify(template.toJSON().Outputs.RealtimeUrl.Value);
    expect(url).toContain('wss://');
    expect(url).toContain(realtimeApiId());
    expect(url).toContain(`/${REALTIME_STAGE}`);
  });

  it('routes $connect, $disconnect and $default to the socket function', () => {
    for (const def of realtimeRoutes) {
      const route = realtimeRouteOf(def.routeKey);
      expect(route, def.routeKey).toBeDefined();
      const integrationId = route.Target['Fn::Join'][1][1].Ref as string;
      expect(JSON.stringify(resources[integrationId]!.Properties.IntegrationUri), def.routeKey).toContain(fnId(def.fn));
    }
  });

  it('puts the Lambda REQUEST authorizer, reading ?token=, on $connect only', () => {
    const authorizers = ofType('AWS::ApiGatewayV2::Authorizer').filter(([, a]) => a.Properties.ApiId.Ref === realtimeApiId());
    expect(authorizers).toHaveLength(1);
    const [authorizerId, authorizer] = authorizers[0]!;
    expect(authorizer.Properties.AuthorizerType).toBe('REQUEST');
    expect(authorizer.Properties.IdentitySource).toEqual(['route.request.querystring.token']);
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(fnId('realtimeAuthorizer'));
    expect(realtimeRouteOf('$connect')).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId } });
    for (const key of ['$disconnect', '$default']) expect(realtimeRouteOf(key)?.AuthorizationType ?? 'NONE', key).toBe('NONE');
  });

  it('makes the authorizer trust exactly the HTTP API’s issuer and audiences', () => {
    const jwt = ofType('AWS::ApiGatewayV2::Authorizer').find(([, a]) => a.Properties.AuthorizerType === 'JWT')![1].Properties.JwtConfiguration;
    const env = envOf('realtimeAuthorizer');
    expect(env.JWT_ISSUER).toEqual(jwt.Issuer);
    expect(env.JWT_AUDIENCE).toEqual({ 'Fn::Join': ['', [jwt.Audience[0], ',', jwt.Audience[1]]] });
    const external = synth({ context: { jwtIssuer: 'https://issuer.example', jwtAudience: 'aud-1,aud-2' } }).template.toJSON().Resources;
    const fn = Object.entries(external).find(([id]) => id.startsWith('RealtimeAuthorizerFunction'))![1] as {
      Properties: { Environment: { Variables: Record<string, unknown> } };
    };
    expect(fn.Properties.Environment.Variables).toMatchObject({ JWT_ISSUER: 'https://issuer.example', JWT_AUDIENCE: 'aud-1,aud-2' });
  }, 180_000);

  it('tells GET /realtime’s function the client URL (wss://…/live)', () => {
    const url = JSON.stringify(envOf('realtime')[REALTIME_URL_ENV]);
    expect(url).toContain('wss://');
    expect(url).toContain(realtimeApiId());
  });
});

describe('the connections data', () => {
  const graphArn = () => JSON.stringify({ 'Fn::GetAtt': [logicalId('AWS::DynamoDB::Table', 'GraphTable'), 'Arn'] });
  const graphActions = (fn: string) =>
    statementsOf(fn)
      .filter((s) => JSON.stringify(s.Resource) === graphArn())
      .flatMap(actionsOf)
      .sort();

  it('lets the socket function record and forget a connection in the graph table, read its user’s feed head (their activity bound) and queue their stamp, nothing else', () => {
    expect(graphActions('realtimeSocket')).toEqual(['dynamodb:DeleteItem', 'dynamodb:PutItem']);
    const other = statementsOf('realtimeSocket')
      .flatMap(actionsOf)
      .filter((a) => !a.startsWith('logs:') && !a.startsWith('sqs:'));
    expect(other.sort()).toEqual(['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem']);
  });

  it('gives the authorizer no data access at all', () => {
    expect(
      statementsOf('realtimeAuthorizer')
        .flatMap(actionsOf)
        .filter((a) => !a.startsWith('logs:')),
    ).toEqual([]);
  });

  it('lets every sender read the connected set and delete a gone connection', () => {
    for (const def of functionList.filter((d) => d.realtime?.pushes)) {
      expect(graphActions(def.id), def.id).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:DeleteItem']));
    }
  });
});

describe('sending', () => {
  const senders = functionList.filter((d) => d.realtime?.pushes).map((d) => d.id);

  it('grants execute-api:ManageConnections to the senders only, on this API’s live stage POST @connections only', () => {
    expect(senders.length).toBeGreaterThan(0);
    const granted = ofType('AWS::IAM::Policy')
      .filter(([, p]) => JSON.stringify(p.Properties.PolicyDocument).includes('execute-api:'))
      .flatMap(([, p]) => (p.Properties.Roles as { Ref: string }[]).map((r) => r.Ref))
      .sort();
    expect(granted).toEqual(senders.map(roleOf).sort());
    const expected = {
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':execute-api:',
          { Ref: 'AWS::Region' },
          ':',
          { Ref: 'AWS::AccountId' },
          ':',
          { Ref: realtimeApiId() },
          `/${REALTIME_STAGE}/POST/@connections/*`,
        ],
      ],
    };
    for (const fn of senders) {
      const statements = statementsOf(fn).filter((s) => actionsOf(s).some((a) => a.startsWith('execute-api:')));
      expect(statements, fn).toEqual([{ Action: 'execute-api:ManageConnections', Effect: 'Allow', Resource: expected }]);
    }
  });

  it('gives the senders, and only them, the @connections endpoint (https://…/live) as REALTIME_ENDPOINT', () => {
    for (const def of functionList) {
      const endpoint = envOf(def.id)[REALTIME_ENDPOINT_ENV];
      if (!senders.includes(def.id)) {
        expect(endpoint, def.id).toBeUndefined();
        continue;
      }
      expect(JSON.stringify(endpoint), def.id).toContain('https://');
      expect(JSON.stringify(endpoint), def.id).toContain(realtimeApiId());
      expect(JSON.stringify(endpoint), def.id).toContain(`/${REALTIME_STAGE}`);
    }
  });

  it('alarms on failed sends (the senders’ dimensionless PushFailures sum) to the alarm topic', () => {
    const topic = { Ref: logicalId('AWS::SNS::Topic', 'AlarmTopic') };
    const alarms = ofType('AWS::CloudWatch::Alarm').filter(([, a]) => a.Properties.MetricName === PUSH_FAILURE_METRIC);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]![1].Properties).toMatchObject({ Namespace: 'tickfeed', Statistic: 'Sum', AlarmActions: [topic], OKActions: [topic] });
    expect(alarms[0]![1].Properties.Dimensions).toBeUndefined();
  });
});

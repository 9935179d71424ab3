/**
 * The realtime WebSocket API (lib/defs/realtime.ts): API Gateway WebSocket API with a Lambda
 * REQUEST authorizer on `$connect` (identity source `?token=`), the routes' function, a stage, and
 * for each function whose definition says so: `realtime.pushes` — REALTIME_ENDPOINT and
 * `execute-api:ManageConnections` on this API's `@connections` only; `realtime.url` — REALTIME_URL;
 * `realtime.jwt` — the issuer and audiences the HTTP API trusts. An alarm on push failures (the
 * senders' PushFailures metric: anything but 410 Gone) goes to the stack's topic.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import {
  functionList,
  type FunctionId,
  metricNamespace,
  PUSH_FAILURE_METRIC,
  REALTIME_ENDPOINT_ENV,
  REALTIME_JWT_AUDIENCE_ENV,
  REALTIME_JWT_ISSUER_ENV,
  REALTIME_STAGE,
  REALTIME_URL_ENV,
  realtimeAuthorizerFn,
  realtimeRoutes,
} from '../defs/index.js';
import type { JwtTrust } from './auth.js';

/** Construct ids of the API and its stage (lib/nag.ts finds them by these). */
export const realtimeConstructIds = { api: 'RealtimeApi', stage: 'RealtimeStage' } as const;

export interface RealtimeApi {
  readonly api: apigw.WebSocketApi;
  readonly stage: apigw.WebSocketStage;
  readonly pushFailures: cloudwatch.Alarm;
}

export function createRealtimeApi(scope: Construct, fns: Record<FunctionId, NodejsFunction>, trust: JwtTrust): RealtimeApi {
  const authorizer = new WebSocketLambdaAuthorizer('RealtimeAuthorizer', fns[realtimeAuthorizerFn], {
    identitySource: ['route.request.querystring.token'],
  });
  const integration = (routeKey: string, fn: FunctionId) => new WebSocketLambdaIntegration(`Realtime${routeKey.replace('$', '')}Integration`, fns[fn]);
  const route = (key: string) => {
    const def = realtimeRoutes.find((r) => r.routeKey === key)!;
    return { integration: integration(key, def.fn), ...(def.auth ? { authorizer } : {}) };
  };
  const api = new apigw.WebSocketApi(scope, realtimeConstructIds.api, {
    apiName: 'tickfeed-realtime',
    connectRouteOptions: route('$connect'),
    disconnectRouteOptions: route('$disconnect'),
    defaultRouteOptions: route('$default'),
  });
  const stage = new apigw.WebSocketStage(scope, realtimeConstructIds.stage, {
    webSocketApi: api,
    stageName: REALTIME_STAGE,
    autoDeploy: true,
    throttle: { rateLimit: 500, burstLimit: 1000 },
  });
  const connections = Stack.of(scope).formatArn({
    service: 'execute-api',
    resource: api.apiId,
    resourceName: `${REALTIME_STAGE}/POST/@connections/*`,
  });
  for (const def of functionList) {
    const fn = fns[def.id];
    if (def.realtime?.pushes) {
      fn.addEnvironment(REALTIME_ENDPOINT_ENV, stage.callbackUrl);
      // PostToConnection only (POST on @connections/{id}): no GET, no DELETE of a connection.
      fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['execute-api:ManageConnections'], resources: [connections] }));
    }
    if (def.realtime?.url) fn.addEnvironment(REALTIME_URL_ENV, stage.url);
    if (def.realtime?.jwt) {
      fn.addEnvironment(REALTIME_JWT_ISSUER_ENV, trust.issuer);
      fn.addEnvironment(REALTIME_JWT_AUDIENCE_ENV, trust.audience.join(','));
    }
  }
  const pushFailures = new cloudwatch.Alarm(scope, 'RealtimePushFailuresAlarm', {
    alarmDescription:
      'Realtime pushes failing (PostToConnection errors other than 410 Gone): clients fall back to their catch-up, but live updates are not arriving',
    metric: new cloudwatch.Metric({ namespace: metricNamespace, metricName: PUSH_FAILURE_METRIC, statistic: 'Sum', period: Duration.minutes(5) }),
    threshold: 10,
    evaluationPeriods: 1,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
  return { api, stage, pushFailures };
}

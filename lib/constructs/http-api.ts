/**
 * The HTTP API: one route per shared route definition (JWT authorizer where `auth`), a `$default`
 * route for problem+json 404/405, JSON access logs and stage throttling.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { defaultRoute, type FunctionId, routes } from '../defs/index.js';
import type { JwtTrust } from './auth.js';

export function createHttpApi(
  scope: Construct,
  fns: Record<FunctionId, NodejsFunction>,
  trust: JwtTrust,
): apigw.HttpApi {
  const integrations = new Map<FunctionId, HttpLambdaIntegration>();
  const integrationFor = (id: FunctionId) => {
    let integration = integrations.get(id);
    if (!integration) integrations.set(id, (integration = new HttpLambdaIntegration(`${id}Integration`, fns[id])));
    return integration;
  };
  const authorizer = new HttpJwtAuthorizer('JwtAuthorizer', trust.issuer, { jwtAudience: trust.audience });

  const api = new apigw.HttpApi(scope, 'Api', {
    apiName: 'tickfeed',
    defaultIntegration: integrationFor(defaultRoute.fn),
    createDefaultStage: false,
  });
  const accessLogs = new logs.LogGroup(scope, 'ApiAccessLogs', {
    retention: logs.RetentionDays.THREE_MONTHS,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  new apigw.HttpStage(scope, 'DefaultStage', {
    httpApi: api,
    stageName: '$default',
    autoDeploy: true,
    throttle: { rateLimit: 1000, burstLimit: 2000 },
    accessLogSettings: {
      destination: new apigw.LogGroupLogDestination(accessLogs),
      format: AccessLogFormat.custom(
        JSON.stringify({
          requestId: '$context.requestId',
          ip: '$context.identity.sourceIp',
          requestTime: '$context.requestTime',
          routeKey: '$context.routeKey',
          status: '$context.status',
          latency: '$context.integrationLatency',
          responseLength: '$context.responseLength',
          authError: '$context.authorizer.error',
        }),
      ),
    },
  });
  for (const route of routes) {
    api.addRoutes({
      path: route.path,
      methods: [apigw.HttpMethod[route.method]],
      integration: integrationFor(route.fn),
      authorizer: route.auth ? authorizer : undefined,
    });
  }
  return api;
}

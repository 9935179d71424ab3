/**
 * Who issues the JWTs the HTTP API trusts: an existing OIDC issuer/audience from cdk.json context
 * (`jwtIssuer`, `jwtAudience`), or by default a Cognito user pool and app client of our own.
 */
import { CfnOutput, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import type { Construct } from 'constructs';

export interface JwtTrust {
  readonly issuer: string;
  readonly audience: string[];
}

export function jwtTrust(scope: Construct): JwtTrust {
  const issuer = String(scope.node.tryGetContext('jwtIssuer') ?? '');
  const audience = String(scope.node.tryGetContext('jwtAudience') ?? '');
  if (issuer && audience) return { issuer, audience: audience.split(',') };
  if (issuer || audience) throw new Error('cdk.json context: set both jwtIssuer and jwtAudience, or neither');

  const pool = new cognito.UserPool(scope, 'Users', {
    selfSignUpEnabled: false,
    signInAliases: { email: true },
    passwordPolicy: {
      minLength: 12,
      requireDigits: true,
      requireLowercase: true,
      requireUppercase: true,
      requireSymbols: true,
    },
    mfa: cognito.Mfa.OPTIONAL,
    mfaSecondFactor: { otp: true, sms: false },
    featurePlan: cognito.FeaturePlan.PLUS,
    standardThreatProtectionMode: cognito.StandardThreatProtectionMode.FULL_FUNCTION,
    accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  const client = pool.addClient('ApiClient', {
    authFlows: { userSrp: true },
    accessTokenValidity: Duration.hours(1),
    idTokenValidity: Duration.hours(1),
  });
  new CfnOutput(scope, 'UserPoolId', { value: pool.userPoolId });
  new CfnOutput(scope, 'UserPoolClientId', { value: client.userPoolClientId });
  return {
    issuer: `https://cognito-idp.${Stack.of(scope).region}.amazonaws.com/${pool.userPoolId}`,
    audience: [client.userPoolClientId],
  };
}

/**
 * cdk-nag AwsSolutions findings we accept, each with its reason. Everything else the pack reports
 * fails `cdk synth` and the infrastructure test.
 */
import { type Stack, Validations } from 'aws-cdk-lib';

export function acknowledgeNagFindings(stack: Stack, feedTableArnToken: string): void {
  const acks: { id: string; reason: string }[] = [
    {
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: 'The basic execution role only lets a function write its own CloudWatch Logs.',
    },
    {
      id: 'AwsSolutions-L1',
      reason: 'Functions pin Node.js 22, the Lambda runtime tickfeed targets and tests (bundled for node22).',
    },
    {
      id: `AwsSolutions-IAM5[Resource::<${feedTableArnToken}>/index/*]`,
      reason: "Read grants cover the feed table's indexes (byAuthor GSI); CDK grants them as index/*.",
    },
    {
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'dynamodb:ListStreams, which CDK adds for stream event sources and stream-table grants, exists only on "*".',
    },
    {
      id: 'AwsSolutions-APIG4',
      reason: 'Only /health and the $default fallback (problem+json 404/405) are public by design; every feature route has the JWT authorizer.',
    },
    {
      id: 'AwsSolutions-COG2',
      reason: 'MFA is optional (TOTP) for feed users; operators can require it per deployment.',
    },
    {
      id: 'AwsSolutions-SQS3',
      reason: "The stream-failures queue is the stream event sources' on-failure destination: it is the dead-letter target itself.",
    },
  ];
  for (const ack of acks) Validations.of(stack).acknowledge(ack);
}

/**
 * Template intent for the operational rules: alarms on every loss path, event filters on
 * the stream mappings, the fan-out worker's maximum concurrency, per-route throttles, and exact
 * least-privilege grants. One behaviour per test.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventSources, functionList, functions, laneList, type StreamSourceDef, type TableId } from '../../lib/defs/index.js';
import { feedPartitionPrefix } from '../../lib/defs/key-prefixes.js';
import { synth } from './synth.js';

let template: Template;
beforeAll(() => {
  template = synth().template;
}, 180_000);

const pascal = (id: string) => `${id[0]!.toUpperCase()}${id.slice(1)}`;
const resources = (t: Template, type: string) => Object.entries(t.findResources(type));
const logicalId = (t: Template, type: string, prefix: string) => {
  const ids = resources(t, type)
    .map(([id]) => id)
    .filter((id) => id.startsWith(prefix));
  expect(ids, prefix).toHaveLength(1);
  return ids[0]!;
};

type Statement = { Action: string | string[]; Resource: unknown; Effect: string };
const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);

/** Every IAM statement attached to function `fnId`'s role. */
function statementsOf(t: Template, fnId: string): Statement[] {
  const fn = t.toJSON().Resources[logicalId(t, 'AWS::Lambda::Function', `${pascal(fnId)}Function`)];
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  return resources(t, 'AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
}

/** DynamoDB actions granted on the table itself (`GetAtt <Table>.Arn`), sorted. */
function tableActions(t: Template, fnId: string, table: TableId): string[] {
  const tableId = logicalId(t, 'AWS::DynamoDB::Table', `${pascal(table)}Table`);
  return statementsOf(t, fnId)
    .filter((s) => JSON.stringify(s.Resource) === JSON.stringify({ 'Fn::GetAtt': [tableId, 'Arn'] }))
    .flatMap(actionsOf)
    .sort();
}

const alarms = (t: Template) => resources(t, 'AWS::CloudWatch::Alarm').map(([id, a]) => ({ id, p: a.Properties }));
const topicId = () => logicalId(template, 'AWS::SNS::Topic', 'AlarmTopic');

describe('alarms on every loss path', () => {
  it('send every alarm (and its recovery) to the one SNS topic', () => {
    const all = alarms(template);
    expect(all.length).toBeGreaterThan(0);
    for (const { id, p } of all) {
      expect(p.AlarmActions, id).toEqual([{ Ref: topicId() }]);
      expect(p.OKActions, id).toEqual([{ Ref: topicId() }]);
    }
  });

  it('alarm on any message in every lane’s DLQ and in the stream-failures queue', () => {
    for (const queue of [...laneList.map((l) => `${pascal(l.id)}DlqQueue`), 'StreamFailuresQueue']) {
      const queueId = logicalId(template, 'AWS::SQS::Queue', queue);
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
        ComparisonOperator: 'GreaterThanThreshold',
        Threshold: 0,
      });
    }
    // …and no depth alarm on a working queue (a busy lane is not a loss; its age alarm is below).
    const fanoutId = logicalId(template, 'AWS::SQS::Queue', 'FanoutQueue');
    const depthAlarms = alarms(template).filter((a) => a.p.MetricName === 'ApproximateNumberOfMessagesVisible');
    expect(JSON.stringify(depthAlarms.map((a) => a.p.Dimensions))).not.toContain(fanoutId);
  });

  it('alarm on the IteratorAge of each stream consumer above 5 minutes (context iteratorAgeAlarm)', () => {
    const consumers = [...new Set(eventSources.filter((s) => s.kind === 'stream').map((s) => s.fn))];
    expect(consumers.sort()).toEqual(['outbox', 'rollups']);
    for (const fn of consumers) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/Lambda',
        MetricName: 'IteratorAge',
        Statistic: 'Maximum',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalId(template, 'AWS::Lambda::Function', `${pascal(fn)}Function`) } }],
        Threshold: 300_000,
      });
    }
    const t = synth({ context: { iteratorAgeAlarm: '2m' } }).template;
    expect(
      alarms(t)
        .filter((a) => a.p.MetricName === 'IteratorAge')
        .map((a) => a.p.Threshold),
    ).toEqual([120_000, 120_000]);
  });

  it('alarm on API 5xx', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Dimensions: [{ Name: 'ApiId', Value: { Ref: logicalId(template, 'AWS::ApiGatewayV2::Api', 'Api') } }],
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it('alarm on the errors and the throttles of every function', () => {
    for (const def of functionList) {
      const fnRef = { Ref: logicalId(template, 'AWS::Lambda::Function', `${pascal(def.id)}Function`) };
      for (const metric of ['Errors', 'Throttles']) {
        const found = alarms(template).filter(
          (a) => a.p.MetricName === metric && JSON.stringify(a.p.Dimensions) === JSON.stringify([{ Name: 'FunctionName', Value: fnRef }]),
        );
        expect(found, `${metric} of ${def.id}`).toHaveLength(1);
        expect(found[0]!.p.Threshold).toBe(0);
      }
    }
  });

  it('deny non-TLS publishing to the topic and let CloudWatch of this account publish', () => {
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [{ Ref: topicId() }],
      PolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 'sns:Publish', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
          }),
        ]),
      }),
    });
  });

  it('subscribe the alarm e-mail only when context alarmEmail is set', () => {
    expect(resources(template, 'AWS::SNS::Subscription')).toHaveLength(0);
    const t = synth({ context: { alarmEmail: 'ops@example.com' } }).template;
    t.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: logicalId(t, 'AWS::SNS::Topic', 'AlarmTopic') },
    });
  });
});

describe('event filters and concurrency', () => {
  it('give each stream mapping exactly the filter patterns declared for its consumer', () => {
    for (const source of eventSources.filter((s): s is StreamSourceDef => s.kind === 'stream')) {
      const mapping = logicalId(template, 'AWS::Lambda::EventSourceMapping', `${pascal(source.fn)}FunctionDynamoDBEventSource`);
      const patterns = template.toJSON().Resources[mapping].Properties.FilterCriteria.Filters.map((f: { Pattern: string }) => JSON.parse(f.Pattern));
      expect(patterns).toEqual(source.filters);
    }
  });

  it('pass only timeline INSERTs to rollups, and timeline INSERTs plus deletions to the outbox', () => {
    const patterns = (fn: string) =>
      JSON.stringify(
        template.toJSON().Resources[logicalId(template, 'AWS::Lambda::EventSourceMapping', `${pascal(fn)}FunctionDynamoDBEventSource`)].Properties
          .FilterCriteria,
      );
    expect(patterns('rollups')).toContain(`{\\"prefix\\":\\"${feedPartitionPrefix.timeline}\\"}`);
    expect(patterns('rollups')).not.toContain('MODIFY');
    expect(patterns('outbox')).toContain('MODIFY');
    expect(patterns('outbox')).toContain('deletedAt');
  });

  it('give each job lane its own queue, DLQ, consumer and mapping, and an alarm on its oldest message’s age', () => {
    for (const lane of laneList) {
      const queue = logicalId(template, 'AWS::SQS::Queue', `${pascal(lane.id)}Queue`);
      const dlq = logicalId(template, 'AWS::SQS::Queue', `${pascal(lane.id)}DlqQueue`);
      const worker = logicalId(template, 'AWS::Lambda::Function', `${pascal(lane.id)}WorkerFunction`);
      template.hasResourceProperties('AWS::SQS::Queue', {
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] }, maxReceiveCount: 5 },
        VisibilityTimeout: 6 * lane.timeoutSeconds,
      });
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        EventSourceArn: { 'Fn::GetAtt': [queue, 'Arn'] },
        FunctionName: { Ref: worker },
        BatchSize: lane.batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: lane.maxConcurrency },
      });
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateAgeOfOldestMessage',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queue, 'QueueName'] } }],
        Threshold: lane.oldestAgeAlarmSeconds,
      });
    }
    // One mapping per lane queue: no consumer shares a pool with another lane.
    const mappings = resources(template, 'AWS::Lambda::EventSourceMapping').filter(([, m]) => JSON.stringify(m.Properties.EventSourceArn).includes('Queue'));
    expect(new Set(mappings.map(([, m]) => JSON.stringify(m.Properties.FunctionName))).size).toBe(laneList.length);
  });

  it('alarm when a post takes more than 10 s to reach its followers (FanoutLag, from the fan-out worker)', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'tickfeed',
      MetricName: 'FanoutLag',
      Dimensions: Match.arrayWith([{ Name: 'lane', Value: 'fanout' }]),
      Statistic: 'Maximum',
      Threshold: 10_000,
    });
  });

  it('cap the fan-out worker’s SQS mapping at 10 concurrent invocations, from context fanoutMaxConcurrency', () => {
    const queue = logicalId(template, 'AWS::SQS::Queue', 'FanoutQueue');
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queue, 'Arn'] },
      ScalingConfig: { MaximumConcurrency: 10 },
    });
    const t = synth({ context: { fanoutMaxConcurrency: 25 } }).template;
    t.hasResourceProperties('AWS::Lambda::EventSourceMapping', { ScalingConfig: { MaximumConcurrency: 25 } });
    expect(() => synth({ context: { fanoutMaxConcurrency: 1 } })).toThrow(/fanoutMaxConcurrency/);
  });
});

describe('per-route stage throttles', () => {
  it('keep the stage default only, without context', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000 },
      RouteSettings: Match.absent(),
    });
  });

  it('apply context routeThrottles as route settings, after the routes exist', () => {
    const { template: t } = synth({ context: { routeThrottles: JSON.stringify({ 'POST /activities': { rateLimit: 50, burstLimit: 100 } }) } });
    const stage = resources(t, 'AWS::ApiGatewayV2::Stage')[0]?.[1];
    expect(stage!.Properties.RouteSettings).toEqual({ 'POST /activities': { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 } });
    const route = resources(t, 'AWS::ApiGatewayV2::Route').find(([, r]) => r.Properties.RouteKey === 'POST /activities')![0];
    expect(stage!.DependsOn).toContain(route);
  });

  it('refuse a throttle for a route that does not exist', () => {
    expect(() => synth({ context: { routeThrottles: { 'POST /nope': { rateLimit: 1, burstLimit: 1 } } } })).toThrow(/routeThrottles/);
  });
});

describe('least privilege', () => {
  it('grants dynamodb:Scan only to the maintenance worker on the graph table (a data-model migration), and no DynamoDB wildcard action', () => {
    const actions = resources(template, 'AWS::IAM::Policy').flatMap(([, p]) => (p.Properties.PolicyDocument.Statement as Statement[]).flatMap(actionsOf));
    expect(actions.filter((a) => /dynamodb:\*/.test(a))).toEqual([]);
    expect(actions.filter((a) => a.includes('*'))).toEqual([]);
    const scanners = functionList.flatMap((def) =>
      (['feed', 'graph', 'stats', 'limits'] as const)
        .filter((t) => tableActions(template, def.id, t).includes('dynamodb:Scan'))
        .map((t) => `${def.id} on ${t}`),
    );
    expect(scanners).toEqual(['maintenanceWorker on graph']);
  });

  it('grants each function exactly the DynamoDB actions its definition lists, per table', () => {
    for (const def of functionList) {
      for (const table of ['feed', 'graph', 'stats'] as const) {
        const want = (def.tables[table] ?? []).map((a) => `dynamodb:${a}`).sort();
        expect(tableActions(template, def.id, table), `${def.id} on ${table}`).toEqual(want);
      }
    }
  });

  it('lets feed reads Query and GetItem the feed table, batch-read reactions (enrich), Query a returning reader’s follows and the reader’s controls (tags), read the trending list, spend rate-limit tokens and queue their stamp or restamp, nothing else anywhere', () => {
    expect(tableActions(template, 'feedRead', 'feed')).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query']);
    expect(tableActions(template, 'feedRead', 'graph')).toEqual(['dynamodb:BatchGetItem', 'dynamodb:Query']);
    expect(tableActions(template, 'feedRead', 'stats')).toEqual(['dynamodb:GetItem']); // the trending top list
    expect(tableActions(template, 'feedRead', 'limits')).toEqual(['dynamodb:UpdateItem']);
    const other = statementsOf(template, 'feedRead')
      .flatMap(actionsOf)
      .filter((a) => !a.startsWith('logs:'));
    expect(other.filter((a) => !a.startsWith('sqs:')).sort()).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:GetItem',
      'dynamodb:GetItem',
      'dynamodb:Query',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
    const queues = statementsOf(template, 'feedRead')
      .filter((s) => actionsOf(s).some((a) => a.startsWith('sqs:')))
      .map((s) => JSON.stringify(s.Resource));
    expect(queues.sort()).toEqual([expect.stringContaining('BackgroundQueue'), expect.stringContaining('FollowupQueue')]);
  });

  it('grants the limits table to the functions serving a caller’s routes, UpdateItem only', () => {
    for (const fn of ['me', 'graph', 'activities', 'feedRead', 'social', 'controls', 'account', 'notifications', 'activityRead', 'realtime']) {
      expect(tableActions(template, fn, 'limits'), fn).toEqual(['dynamodb:UpdateItem']);
    }
    for (const fn of ['outbox', 'rollups', 'health', 'openapi']) expect(tableActions(template, fn, 'limits'), fn).toEqual([]);
  });

  it('keeps the stream read actions of the stream consumers, on the feed table’s stream', () => {
    const feed = logicalId(template, 'AWS::DynamoDB::Table', 'FeedTable');
    for (const fn of ['outbox', 'rollups']) {
      const onStream = statementsOf(template, fn)
        .filter((s) => JSON.stringify(s.Resource) === JSON.stringify({ 'Fn::GetAtt': [feed, 'StreamArn'] }))
        .flatMap(actionsOf);
      expect(onStream.sort(), fn).toEqual(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator']);
    }
    for (const fn of functionList.filter((d) => !['outbox', 'rollups'].includes(d.id))) {
      expect(JSON.stringify(statementsOf(template, fn.id)), fn.id).not.toContain('StreamArn');
    }
  });

  it('never grants an index ARN', () => {
    expect(JSON.stringify(template.findResources('AWS::IAM::Policy'))).not.toContain('/index/');
  });

  it('gives every function a role of its own, without managed policies, writing only its own log group', () => {
    for (const def of functionList) {
      const fn = template.toJSON().Resources[logicalId(template, 'AWS::Lambda::Function', `${pascal(def.id)}Function`)];
      const role = template.toJSON().Resources[fn.Properties.Role['Fn::GetAtt'][0]];
      expect(role.Properties.ManagedPolicyArns, def.id).toBeUndefined();
      const logs = statementsOf(template, def.id).filter((s) => actionsOf(s).some((a) => a.startsWith('logs:')));
      expect(logs, def.id).toEqual([
        {
          Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          Effect: 'Allow',
          Resource: { 'Fn::GetAtt': [logicalId(template, 'AWS::Logs::LogGroup', `${pascal(def.id)}Logs`), 'Arn'] },
        },
      ]);
    }
  });

  it('keeps every public route cheap: its function reads no table and sends to no queue', () => {
    for (const fnId of ['health', 'openapi', 'fallback'] as const) {
      expect(functions[fnId].tables, fnId).toEqual({});
      expect(functions[fnId].sendsTo, fnId).toEqual([]);
      expect(
        statementsOf(template, fnId)
          .flatMap(actionsOf)
          .filter((a) => !a.startsWith('logs:')),
        fnId,
      ).toEqual([]);
    }
  });
});

describe('upgrades', () => {
  it('start the data-model migration with the deploy: a trigger invokes migrationStart once the maintenance worker and its queue are in place', () => {
    const triggers = resources(template, 'Custom::Trigger');
    expect(triggers).toHaveLength(1);
    const [, trigger] = triggers[0]!;
    // Its current version: a new bundle (a new data model) is a new version, so the trigger runs again.
    expect(JSON.stringify(trigger.Properties.HandlerArn)).toContain(logicalId(template, 'AWS::Lambda::Version', 'MigrationStartFunctionCurrentVersion'));
    const after = JSON.stringify(trigger.DependsOn ?? []);
    for (const needed of [
      logicalId(template, 'AWS::Lambda::Function', 'MaintenanceWorkerFunction'),
      logicalId(template, 'AWS::SQS::Queue', 'MaintenanceQueue'),
    ]) {
      expect(after).toContain(needed);
    }
  });

  it('alarm when a migration job fails', () => {
    const failures = alarms(template).filter(({ p }) => p.MetricName === 'MigrationFailures');
    expect(failures).toHaveLength(1);
    expect(failures[0]!.p.Threshold).toBe(0);
  });
});

describe('docs/operations.md', () => {
  it('lists every alarm the stack has, and no alarm it lacks (the table is read against the template)', () => {
    const doc = readFileSync(resolve(import.meta.dirname, '..', '..', 'docs', 'operations.md'), 'utf8');
    const table = doc.slice(doc.indexOf('| alarm | fires when |'), doc.indexOf('\n\n', doc.indexOf('| alarm | fires when |')));
    // `<Lane>` and `<Function>` stand for each lane's and each function's name.
    const expand = (name: string): string[] =>
      name.includes('<Lane>')
        ? laneList.map((l) => name.replace('<Lane>', pascal(l.id)))
        : name.includes('<Function>')
          ? functionList.map((f) => name.replace('<Function>', pascal(f.id)))
          : [name];
    const documented = table
      .split('\n')
      .slice(2)
      .flatMap((row) => [...(row.split(' | ')[0] ?? '').matchAll(/`([^`]+)`/g)].flatMap((m) => expand(m[1]!)));
    // A logical id is the construct's id and CDK's 8-character hash.
    const alarms = resources(template, 'AWS::CloudWatch::Alarm').map(([id]) => id.replace(/[0-9A-F]{8}$/, ''));
    expect(alarms.length).toBeGreaterThan(10);
    expect(alarms.filter((a) => !documented.includes(a)).sort(), 'alarms missing from the table').toEqual([]);
    expect(documented.filter((d) => !alarms.includes(d)).sort(), 'rows for alarms the stack lacks').toEqual([]);
  });
});

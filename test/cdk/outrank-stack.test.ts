import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { allQueues, resourceDefinitions, resourcesAt } from '../../functions/adapters/definitions';
import { environmentFor, readEnvironment } from '../../functions/environment';
import { DEFAULT_BANDS, DEFAULT_CONFIG } from '../../lib/config';
import { OBJECT_STREAM_FILTER } from '../../functions/adapters/object-stream';
import { cdkJsonContext, outrankApp } from '../../cdk/outrank-app';
import { resolveSettings } from '../../cdk/outrank-stack';
import { deadLetterQueueUrlOutput, OUTPUTS, QUEUE_IDS, queueUrlOutput } from '../../cdk/outputs';
import { resolveValue, TemplateModel } from './support/template-model';

// One synthesis (esbuild bundles every function) shared by every test: annotations first, since
// Annotations.fromStack forces a synthesis that Template.fromStack then reuses.
const { app, stack } = outrankApp(cdkJsonContext());
const annotations = Annotations.fromStack(stack);
const template = Template.fromStack(stack);
const model = new TemplateModel(template);

const definitions = resourceDefinitions('outrank', DEFAULT_BANDS);
const FUNCTIONS = ['api', 'policy-change', 'binding-enqueue', 'schedule-cycle', 'reconcile'].map((name) => `outrank-${name}`);
const queueArn = (queueName: string) => ({ 'Fn::GetAtt': [model.queueId(queueName), 'Arn'] });

describe('queues', () => {
  it.each(allQueues(definitions))('$name is FIFO and redrives to its FIFO dead-letter queue', (queue) => {
    expect(model.resources[model.queueId(queue.name)]!.Properties).toMatchObject({
      FifoQueue: true,
      ContentBasedDeduplication: false,
      VisibilityTimeout: queue.visibilityTimeoutSeconds,
      RedrivePolicy: { deadLetterTargetArn: queueArn(queue.deadLetterName), maxReceiveCount: queue.maxReceiveCount },
    });
    expect(model.resources[model.queueId(queue.deadLetterName)]!.Properties).toMatchObject({ FifoQueue: true });
  });

  it('are exactly the defined queues and their dead-letter queues, each refusing unencrypted transport', () => {
    const names = model.ofType('AWS::SQS::Queue').map(([, queue]) => queue.Properties.QueueName);
    expect(names.sort()).toEqual([...allQueues(definitions).flatMap((queue) => [queue.name, queue.deadLetterName]), definitions.objectStreamFailuresQueueName].sort());
    expect(model.ofType('AWS::SQS::QueuePolicy')).toHaveLength(names.length);
  });
});

describe('tables', () => {
  it.each([definitions.objectsTable, definitions.eventsTable])('$name is on demand, recoverable to a point in time and kept', (table) => {
    const [, resource] = model.ofType('AWS::DynamoDB::Table').find(([, t]) => t.Properties.TableName === table.name)!;
    expect(resource.DeletionPolicy).toBe('Retain');
    expect(resource.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      KeySchema: [
        { AttributeName: table.partitionKey, KeyType: 'HASH' },
        { AttributeName: table.sortKey, KeyType: 'RANGE' },
      ],
    });
    expect(resource.Properties.TimeToLiveSpecification).toEqual(
      table.timeToLiveAttribute ? { AttributeName: table.timeToLiveAttribute, Enabled: true } : undefined,
    );
  });

  it('the objects table streams the keys of every change, the events table nothing', () => {
    const tableProperties = (name: string) => model.ofType('AWS::DynamoDB::Table').find(([, t]) => t.Properties.TableName === name)![1].Properties;
    expect(tableProperties(definitions.objectsTable.name).StreamSpecification).toEqual({ StreamViewType: 'KEYS_ONLY' });
    expect(tableProperties(definitions.eventsTable.name).StreamSpecification).toBeUndefined();
  });

  it('the objects table has the change feed the informers read: an index of each kind by version, keys only', () => {
    const [, resource] = model.ofType('AWS::DynamoDB::Table').find(([, t]) => t.Properties.TableName === definitions.objectsTable.name)!;
    expect(resource.Properties.LocalSecondaryIndexes).toEqual([
      {
        IndexName: 'byVersion',
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'version', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
    ]);
  });

  it('the events table has an index of the events of an indexed reason across objects (Preempted) and one by write time (the feed a watch reads), whole items', () => {
    const [, resource] = model.ofType('AWS::DynamoDB::Table').find(([, t]) => t.Properties.TableName === definitions.eventsTable.name)!;
    expect(resource.Properties.GlobalSecondaryIndexes).toEqual([
      {
        IndexName: 'byReason',
        KeySchema: [
          { AttributeName: 'indexedReason', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
      {
        IndexName: 'byWriteTime',
        KeySchema: [
          { AttributeName: 'writeMinute', KeyType: 'HASH' },
          { AttributeName: 'written', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ]);
  });
});

describe('functions', () => {
  // Refs as a deployment would resolve them: a table to its name, a queue to a URL ending in its name.
  const refValue = (logicalId: string) => {
    const resource = model.resources[logicalId]!;
    if (resource.Type === 'AWS::DynamoDB::Table') return resource.Properties.TableName as string;
    if (resource.Type === 'AWS::SQS::Queue') return `https://sqs.test/${resource.Properties.QueueName}`;
    throw new Error(`unexpected Ref to ${resource.Type}`);
  };
  const url = (queueName: string) => `https://sqs.test/${queueName}`;

  it.each(FUNCTIONS)('%s runs Node 22 on arm64 with the environment the handlers read', (name) => {
    const properties = model.resources[model.functionId(name)]!.Properties;
    expect(properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Handler: 'index.handler' });
    const environment = Object.fromEntries(
      Object.entries(properties.Environment.Variables as Record<string, unknown>).map(([key, value]) => [key, resolveValue(value, refValue)]),
    );
    // No source maps by default: they lengthen every cold start (the stack's sourceMaps property).
    expect(environment).toEqual(environmentFor(resourcesAt(definitions, url), resolveSettings()));
    expect(readEnvironment(environment).config).toMatchObject({
      gates: DEFAULT_CONFIG.gates,
      bands: DEFAULT_CONFIG.bands,
      preemptibleBelowPriority: DEFAULT_CONFIG.preemptibleBelowPriority,
    });
  });

  it('are bundled into ES modules that Node loads, each exporting handler', () => {
    // A plain Node process, as Lambda's runtime would load them: an ESM bundle that still calls
    // require() or misses a module fails here rather than on AWS. Like the runtime, it offers the
    // AWS SDK v3 and nothing else.
    const provided = join(app.outdir, 'node_modules');
    if (!existsSync(join(provided, '@aws-sdk'))) {
      mkdirSync(provided, { recursive: true });
      symlinkSync(fileURLToPath(new URL('../../node_modules/@aws-sdk', import.meta.url)), join(provided, '@aws-sdk'));
    }
    const bundles = FUNCTIONS.map((name) => {
      const key = String(model.resources[model.functionId(name)]!.Properties.Code.S3Key).replace(/\.zip$/, '');
      return pathToFileURL(join(app.outdir, `asset.${key}`, 'index.mjs')).href;
    });
    const script = `for (const url of ${JSON.stringify(bundles)}) console.log(typeof (await import(url)).handler);`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    expect(output.trim().split('\n')).toEqual(FUNCTIONS.map(() => 'function'));
  });

  it('gives schedule-cycle, and only it, a reserved concurrency: four cycles by default', () => {
    const reserved = Object.fromEntries(model.ofType('AWS::Lambda::Function').map(([, fn]) => [fn.Properties.FunctionName, fn.Properties.ReservedConcurrentExecutions]));
    expect(reserved).toEqual(Object.fromEntries(FUNCTIONS.map((name) => [name, name === 'outrank-schedule-cycle' ? 4 : undefined])));
  });

  it('drives policy-change and binding-enqueue from their queues with partial batch responses, schedule-cycle from the tick queue one tick to an invocation', () => {
    const mappings = model.ofType('AWS::Lambda::EventSourceMapping').map(([, mapping]) => mapping.Properties).filter((mapping) => !mapping.StartingPosition);
    const mapping = (functionName: string, queueName: string, batchSize: number, functionResponseTypes?: string[]) => ({
      FunctionName: { Ref: model.functionId(functionName) },
      EventSourceArn: queueArn(queueName),
      BatchSize: batchSize,
      ...(functionResponseTypes ? { FunctionResponseTypes: functionResponseTypes } : {}),
    });
    expect(mappings).toEqual(
      expect.arrayContaining([
        mapping('outrank-policy-change', definitions.policyChangeQueue.name, 10, ['ReportBatchItemFailures']),
        mapping('outrank-binding-enqueue', definitions.bindingEnqueueQueue.name, 10, ['ReportBatchItemFailures']),
        // Ticks of different message groups start cycles side by side, not one cycle for a batch of them.
        mapping('outrank-schedule-cycle', definitions.scheduleTickQueue.name, 1),
      ]),
    );
    expect(mappings).toHaveLength(3);
  });

  it('drives policy-change from the objects table\'s stream: every policy, template and cluster write, in order, failures reported and alarmed', () => {
    const streams = model.ofType('AWS::Lambda::EventSourceMapping').map(([, mapping]) => mapping.Properties).filter((mapping) => mapping.StartingPosition);
    const objectsTable = model.idWhere('AWS::DynamoDB::Table', 'TableName', definitions.objectsTable.name);
    expect(streams).toEqual([
      expect.objectContaining({
        FunctionName: { Ref: model.functionId('outrank-policy-change') },
        EventSourceArn: { 'Fn::GetAtt': [objectsTable, 'StreamArn'] },
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: 100,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: 10,
        FilterCriteria: { Filters: [{ Pattern: JSON.stringify(OBJECT_STREAM_FILTER) }] },
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [model.queueId(definitions.objectStreamFailuresQueueName), 'Arn'] } } },
      }),
    ]);
    const alarmed = model.ofType('AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties);
    expect(alarmed.some((alarm) => alarm.MetricName === 'ApproximateNumberOfMessagesVisible' && alarm.Dimensions[0].Value['Fn::GetAtt'][0] === model.queueId(definitions.objectStreamFailuresQueueName))).toBe(true);
    expect(alarmed.some((alarm) => alarm.MetricName === 'IteratorAge' && alarm.Dimensions[0].Value.Ref === model.functionId('outrank-policy-change'))).toBe(true);
  });

  it('never outlives the visibility timeout of the queue it consumes', () => {
    for (const mapping of model.ofType('AWS::Lambda::EventSourceMapping').map(([, m]) => m.Properties).filter((m) => !m.StartingPosition)) {
      const fn = model.resources[mapping.FunctionName.Ref]!;
      const queue = model.resources[mapping.EventSourceArn['Fn::GetAtt'][0]]!;
      expect(fn.Properties.Timeout).toBeLessThanOrEqual(queue.Properties.VisibilityTimeout);
    }
  });

  it('starts schedule-cycle and reconcile every minute from EventBridge', () => {
    for (const name of ['outrank-schedule-cycle', 'outrank-reconcile']) {
      const target = { 'Fn::GetAtt': [model.functionId(name), 'Arn'] };
      template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(1 minute)', State: 'ENABLED', Targets: [Match.objectLike({ Arn: target })] });
      template.hasResourceProperties('AWS::Lambda::Permission', { FunctionName: target, Principal: 'events.amazonaws.com', Action: 'lambda:InvokeFunction' });
      template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: { Ref: model.functionId(name) },
        MaximumEventAgeInSeconds: 60,
        MaximumRetryAttempts: 0,
      });
    }
  });

  it('starts the template resync (reconcile with { resync: true }) every half hour', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(30 minutes)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [model.functionId('outrank-reconcile'), 'Arn'] }, Input: JSON.stringify({ resync: true }) })],
    });
  });
});

describe('HTTP API', () => {
  it('sends every request, signed with IAM, to the api function (payload v2)', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
    const routes = model.ofType('AWS::ApiGatewayV2::Route').map(([, route]) => route.Properties);
    expect(routes.map((route) => route.RouteKey)).toEqual(['$default']);
    expect(routes.every((route) => route.AuthorizationType === 'AWS_IAM')).toBe(true);
    template.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
      IntegrationUri: { 'Fn::GetAtt': [model.functionId('outrank-api'), 'Arn'] },
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: '$default', AutoDeploy: true, AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }) });
  });

  it('throttles requests (429 Too Many Requests) rather than letting a flood time writes out', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      DefaultRouteSettings: Match.objectLike({ ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 }),
    });
  });
});

describe('watch function URL', () => {
  it('streams the API with watch from the watch function, signed with IAM, for up to 15 minutes', () => {
    template.resourceCountIs('AWS::Lambda::Url', 1);
    template.hasResourceProperties('AWS::Lambda::Url', {
      AuthType: 'AWS_IAM',
      InvokeMode: 'RESPONSE_STREAM',
      TargetFunctionArn: { 'Fn::GetAtt': [model.functionId('outrank-watch'), 'Arn'] },
    });
    expect(model.resources[model.functionId('outrank-watch')]!.Properties.Timeout).toBe(900);
  });
});

describe('IAM', () => {
  it('has no wildcard action and no wildcard resource (but dynamodb:ListStreams, which has no resource-level permissions)', () => {
    for (const name of FUNCTIONS) {
      for (const grant of model.grantsOf(name).filter((g) => g.action !== 'dynamodb:ListStreams')) {
        expect(grant.action).not.toMatch(/\*/);
        expect(grant.resource).not.toBe('"*"');
      }
    }
  });

  const can = (functionName: string, action: string, resource: string) =>
    model.grantsOf(functionName).some((grant) => grant.action === action && grant.resource === resource);
  const objectsTable = () => model.idWhere('AWS::DynamoDB::Table', 'TableName', definitions.objectsTable.name);
  const eventsTable = () => model.idWhere('AWS::DynamoDB::Table', 'TableName', definitions.eventsTable.name);

  it('lets each function use exactly the queues its handler uses', () => {
    const receivers = (queueName: string) => FUNCTIONS.filter((name) => can(name, 'sqs:ReceiveMessage', model.queueId(queueName)));
    const senders = (queueName: string) => FUNCTIONS.filter((name) => can(name, 'sqs:SendMessage', model.queueId(queueName)));
    expect(receivers(definitions.policyChangeQueue.name)).toEqual(['outrank-policy-change']);
    // Writes reach policy-change through the objects table's stream; its queue carries the template resync
    // and the templates a policy write hands on.
    expect(senders(definitions.policyChangeQueue.name)).toEqual(['outrank-policy-change', 'outrank-reconcile']);
    expect(receivers(definitions.bindingEnqueueQueue.name)).toEqual(['outrank-binding-enqueue']);
    expect(senders(definitions.bindingEnqueueQueue.name)).toEqual(['outrank-api', 'outrank-policy-change', 'outrank-schedule-cycle', 'outrank-reconcile']);
    expect(receivers(definitions.scheduleTickQueue.name)).toEqual(['outrank-schedule-cycle']);
    expect(senders(definitions.scheduleTickQueue.name)).toEqual(['outrank-policy-change', 'outrank-binding-enqueue']);
    for (const band of definitions.bandQueues.values()) {
      expect(receivers(band.name)).toEqual(['outrank-schedule-cycle']);
      expect(can('outrank-schedule-cycle', 'sqs:ChangeMessageVisibility', model.queueId(band.name))).toBe(true);
      expect(senders(band.name)).toEqual(['outrank-policy-change', 'outrank-binding-enqueue']);
    }
    // Dead letters are only ever read, by the queue status the API serves.
    for (const queue of allQueues(definitions)) {
      const grants = FUNCTIONS.flatMap((name) => model.grantsOf(name).filter((grant) => grant.resource === model.queueId(queue.deadLetterName)).map((grant) => `${name} ${grant.action}`));
      expect(grants.sort()).toEqual(['outrank-api sqs:GetQueueAttributes', 'outrank-api sqs:GetQueueUrl']);
    }
  });

  it('lets the functions serving the API read how much every queue holds and what each gave up on (GET /outrank/v1/queues)', () => {
    const queues = [...allQueues(definitions).flatMap((queue) => [queue.name, queue.deadLetterName]), definitions.objectStreamFailuresQueueName];
    for (const server of ['outrank-api', 'outrank-watch']) {
      for (const queue of queues) {
        expect(can(server, 'sqs:GetQueueAttributes', model.queueId(queue)), `${server} on ${queue}`).toBe(true);
        expect(can(server, 'sqs:GetQueueUrl', model.queueId(queue)), `${server} on ${queue}`).toBe(true);
      }
    }
    const failuresQueueGrants = FUNCTIONS.flatMap((name) => model.grantsOf(name).filter((grant) => grant.resource === model.queueId(definitions.objectStreamFailuresQueueName)).map((grant) => `${name} ${grant.action}`));
    // policy-change's role sends to it, as its event source mapping's on-failure destination.
    expect(failuresQueueGrants.sort()).toEqual([
      'outrank-api sqs:GetQueueAttributes',
      'outrank-api sqs:GetQueueUrl',
      'outrank-policy-change sqs:GetQueueAttributes',
      'outrank-policy-change sqs:GetQueueUrl',
      'outrank-policy-change sqs:SendMessage',
    ]);
  });

  it('lets reconcile only read objects and everyone only append events', () => {
    expect(can('outrank-reconcile', 'dynamodb:Query', objectsTable())).toBe(true);
    expect(model.grantsOf('outrank-reconcile').filter((grant) => /^dynamodb:.*(Put|Update|Delete|Write)/.test(grant.action))).toEqual([]);
    const eventWrites = FUNCTIONS.flatMap((name) =>
      model.grantsOf(name).filter((grant) => grant.resource === eventsTable() && /Put|Update|Delete|Write/.test(grant.action)).map((grant) => `${name} ${grant.action}`),
    );
    expect(eventWrites.sort()).toEqual(['outrank-policy-change dynamodb:BatchWriteItem', 'outrank-schedule-cycle dynamodb:BatchWriteItem']);
  });
});

describe('alarms', () => {
  const alarms = model.ofType('AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties);
  const onQueue = (queueName: string, metricName: string) =>
    alarms.filter((alarm) => alarm.MetricName === metricName && alarm.Dimensions[0].Value['Fn::GetAtt'][0] === model.queueId(queueName));

  it.each(allQueues(definitions))('fire as soon as anything lands in $deadLetterName', (queue) => {
    expect(onQueue(queue.deadLetterName, 'ApproximateNumberOfMessagesVisible')).toEqual([
      expect.objectContaining({ Namespace: 'AWS/SQS', ComparisonOperator: 'GreaterThanThreshold', Threshold: 0 }),
    ]);
  });

  it.each([...definitions.bandQueues.values()])('fire when the oldest message in $name has waited over 5 minutes', (queue) => {
    expect(onQueue(queue.name, 'ApproximateAgeOfOldestMessage')).toEqual([
      expect.objectContaining({ Namespace: 'AWS/SQS', ComparisonOperator: 'GreaterThanThreshold', Threshold: 300 }),
    ]);
  });

  it('are only those', () => {
    // A dead-letter alarm per queue, an age alarm per band, and the objects stream's failures and iterator age.
    expect(alarms).toHaveLength(allQueues(definitions).length + definitions.bandQueues.size + 2);
  });
});

describe('outputs', () => {
  it('give the API URL and invoke ARN, the watch URL, the table names and every queue URL', () => {
    const queueIds = [QUEUE_IDS.policyChange, QUEUE_IDS.bindingEnqueue, QUEUE_IDS.scheduleTick, ...DEFAULT_BANDS.map((band) => QUEUE_IDS.band(band.name))];
    expect(Object.keys(template.toJSON().Outputs).sort()).toEqual(
      [
        OUTPUTS.apiUrl,
        OUTPUTS.apiInvokeArn,
        OUTPUTS.watchUrl,
        OUTPUTS.objectsTable,
        OUTPUTS.eventsTable,
        ...queueIds.flatMap((id) => [queueUrlOutput(id), deadLetterQueueUrlOutput(id)]),
        queueUrlOutput(QUEUE_IDS.objectStreamFailures),
      ].sort(),
    );
    template.hasOutput(queueUrlOutput(QUEUE_IDS.objectStreamFailures), { Value: { Ref: model.queueId(definitions.objectStreamFailuresQueueName) } });
    template.hasOutput(queueUrlOutput(QUEUE_IDS.band('high')), { Value: { Ref: model.queueId(definitions.bandQueues.get('high')!.name) } });
  });
});

describe('cdk-nag AwsSolutions checks', () => {
  it('leave no unsuppressed error or warning', () => {
    expect(annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
    expect(annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
  });

  it('give a reason for every suppression', () => {
    const suppressions = Object.values(model.resources).flatMap(
      (resource) => (resource.Metadata?.cdk_nag?.rules_to_suppress ?? []) as Array<{ id: string; reason?: string }>,
    );
    expect(suppressions.length).toBeGreaterThan(0);
    for (const suppression of suppressions) expect(suppression.reason?.trim().length ?? 0).toBeGreaterThan(20);
  });
});

import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpIamAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { resourceDefinitions, type TableDefinition } from '../functions/adapters/definitions';
import { OBJECT_STREAM_FILTER } from '../functions/adapters/object-stream';
import { DEFAULT_SCHEDULE_CYCLES } from '../functions/adapters/schedule-ticking-queue';
import { environmentFor, parseSettings, type OutrankSettings, type OutrankSettingsWithTenancy } from '../functions/environment';
import { DEFAULT_CONFIG } from '../lib/config';
import { NagSuppressions } from 'cdk-nag';
import { FifoQueue } from './fifo-queue';
import { handlerFunction } from './handler-function';
import { deadLetterQueueUrlOutput, OUTPUTS, QUEUE_IDS, queueUrlOutput } from './outputs';

export interface OutrankStackProps extends StackProps {
  /** Prefix of every table, queue and function name; deployments sharing an account and region need different ones. Default `outrank`. */
  readonly prefix?: string;
  /** Feature gates, priority bands and preemptibility threshold; what is left out takes the local runtime's default (lib/config). */
  readonly settings?: OutrankSettingsWithTenancy;
  /**
   * Concurrent schedule cycles allowed. Default 4: cycles deciding on the same cluster serialise through
   * the commit's conditions (the loser decides again on a refreshed snapshot); 1 drains the bands strictly
   * in priority order. The ticks that start cycles are spread over as many message groups, one tick to an
   * invocation, so that a burst starts that many cycles.
   */
  readonly scheduleCycleReservedConcurrency?: number;
  /** A band queue whose oldest message is older than this raises its alarm. Default 5 minutes. */
  readonly maxBandMessageAge?: Duration;
  /** What happens to the tables and log groups when the stack is deleted. Default RETAIN. */
  readonly removalPolicy?: RemovalPolicy;
  /** False leaves out the SQS event source mappings, for an emulator that cannot run Lambda. Default true. */
  readonly lambdaEventSources?: boolean;
  /** False leaves out the watch function's URL, for an emulator whose CloudFormation has no AWS::Lambda::Url. Default true. */
  readonly watchFunctionUrl?: boolean;
  /**
   * Ship each bundle's source map and run with --enable-source-maps, for stack traces into the
   * TypeScript sources. Default false: the maps add 1.0–1.6 MiB to each function's package, for traces
   * that name minified lines (function names are kept either way); the cold import time measured the same.
   */
  readonly sourceMaps?: boolean;
  /**
   * Requests per second the HTTP API takes, steady and in a burst, before it answers 429 Too Many
   * Requests (clients such as kubectl retry those). Default 100 and 200: the api function then stays
   * within its concurrency and its 29 s, instead of timing out writes under a flood.
   */
  readonly apiThrottle?: { readonly rateLimit: number; readonly burstLimit: number };
  /**
   * Memory (MB) of the functions that serve the API, api and watch. Default 512, which holds a what-if
   * (`POST /outrank/v1/whatif`, a copy of the whole live state) up to about 20,000 workloads; a what-if
   * of 30,000 needs about 460 MB besides the read.
   */
  readonly apiMemorySize?: number;
}

const DEFAULT_API_MEMORY_MB = 512;
const DEFAULT_API_THROTTLE = { rateLimit: 100, burstLimit: 200 };

/** How often EventBridge starts a schedule cycle (a backstop for lost ticks) and a reconcile, as the local runtime does. */
const SCHEDULE_INTERVAL = Duration.minutes(1);
/** How often every template goes to policy-change again (lib/controllers/template-resync.ts), as `npm start` does. */
const RESYNC_INTERVAL = Duration.minutes(30);

/** Events are only ever appended, in batches (functions/adapters/dynamodb-event-log.ts), never changed or deleted. */
const APPEND_EVENT = 'dynamodb:BatchWriteItem';

/** What the queue status reads of a queue: its depth (GetQueueAttributes), and its dead-letter queue's URL by name. */
const READ_QUEUE_STATUS = ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl'];

/** One JSON line per request, with HTTP API variables (the default format names REST API ones) and the signer. */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    time: '$context.requestTime',
    sourceIp: '$context.identity.sourceIp',
    caller: '$context.identity.userArn',
    method: '$context.httpMethod',
    path: '$context.path',
    status: '$context.status',
    responseLength: '$context.responseLength',
    integrationError: '$context.integrationErrorMessage',
  }),
);

/** The settings the functions run with: every scheduler setting spelled out, and the tenancy if any. */
export type ResolvedSettings = Required<OutrankSettings> & Pick<OutrankSettingsWithTenancy, 'tenancy'>;

/** Every setting spelled out, defaults from lib/config; checked first as the functions will check them. */
export function resolveSettings(settings: OutrankSettingsWithTenancy = {}): ResolvedSettings {
  parseSettings(JSON.stringify(settings));
  return {
    gates: { ...DEFAULT_CONFIG.gates, ...settings.gates },
    schedulerNames: settings.schedulerNames ?? [...DEFAULT_CONFIG.schedulerNames],
    preemptibleBelowPriority: settings.preemptibleBelowPriority ?? DEFAULT_CONFIG.preemptibleBelowPriority,
    unschedulableFlushSeconds: settings.unschedulableFlushSeconds ?? DEFAULT_CONFIG.unschedulableRequeueMs / 1_000,
    bands: settings.bands ?? DEFAULT_CONFIG.bands.map((band) => ({ ...band })),
    // Without it every caller of the deployed API would be an admin.
    ...(settings.tenancy ? { tenancy: settings.tenancy } : {}),
  };
}

function table(scope: Construct, id: string, definition: TableDefinition, removalPolicy: RemovalPolicy): dynamodb.Table {
  const created = new dynamodb.Table(scope, id, {
    tableName: definition.name,
    partitionKey: { name: definition.partitionKey, type: dynamodb.AttributeType.STRING },
    sortKey: { name: definition.sortKey, type: dynamodb.AttributeType.STRING },
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    timeToLiveAttribute: definition.timeToLiveAttribute,
    ...(definition.keysStream ? { stream: dynamodb.StreamViewType.KEYS_ONLY } : {}),
    removalPolicy,
  });
  for (const index of definition.globalIndexes ?? []) {
    created.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType.ALL,
    });
  }
  for (const index of definition.localIndexes ?? []) {
    created.addLocalSecondaryIndex({
      indexName: index.name,
      sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType.KEYS_ONLY,
    });
  }
  return created;
}

/** The objects table's stream to policy-change: records per invocation, and retries of a failing batch before it is reported. */
const OBJECT_STREAM_BATCH_SIZE = 100;
const OBJECT_STREAM_RETRIES = 10;

/**
 * outrank on AWS: the tables and FIFO queues of functions/adapters/definitions.ts, one function per
 * handler, the HTTP API in front of `api` and the schedules, with alarms and outputs.
 */
export class OutrankStack extends Stack {
  /** The settings the functions run with, every default spelled out. */
  readonly settings: ResolvedSettings;

  constructor(scope: Construct, id: string, props: OutrankStackProps = {}) {
    super(scope, id, props);
    const prefix = props.prefix ?? 'outrank';
    const settings = resolveSettings(props.settings);
    this.settings = settings;
    const bands = settings.bands;
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    const reservedConcurrency = props.scheduleCycleReservedConcurrency ?? DEFAULT_SCHEDULE_CYCLES;
    if (!Number.isInteger(reservedConcurrency) || reservedConcurrency < 1) {
      throw new Error(`scheduleCycleReservedConcurrency must be a whole number of at least 1, not ${reservedConcurrency}`);
    }
    const apiMemorySize = props.apiMemorySize ?? DEFAULT_API_MEMORY_MB;
    // Lambda's own limits.
    if (!Number.isInteger(apiMemorySize) || apiMemorySize < 128 || apiMemorySize > 10_240) {
      throw new Error(`apiMemorySize must be a whole number of MB from 128 to 10240, not ${apiMemorySize}`);
    }

    const definitions = resourceDefinitions(prefix, bands);
    const objects = table(this, 'ObjectsTable', definitions.objectsTable, removalPolicy);
    const eventLog = table(this, 'EventsTable', definitions.eventsTable, removalPolicy);
    const policyChange = new FifoQueue(this, QUEUE_IDS.policyChange, definitions.policyChangeQueue);
    const bindingEnqueue = new FifoQueue(this, QUEUE_IDS.bindingEnqueue, definitions.bindingEnqueueQueue);
    const scheduleTick = new FifoQueue(this, QUEUE_IDS.scheduleTick, definitions.scheduleTickQueue);
    const bandQueues = bands.map((band) => new FifoQueue(this, QUEUE_IDS.band(band.name), definitions.bandQueues.get(band.name)!));
    for (const band of bandQueues) band.addAgeAlarm(props.maxBandMessageAge ?? Duration.minutes(5));
    const objectStreamFailures = this.objectStreamFailuresQueue(definitions.objectStreamFailuresQueueName, removalPolicy);

    const environment = environmentFor(
      {
        objectsTable: objects.tableName,
        eventsTable: eventLog.tableName,
        policyChangeQueueUrl: policyChange.queue.queueUrl,
        bindingEnqueueQueueUrl: bindingEnqueue.queue.queueUrl,
        scheduleTickQueueUrl: scheduleTick.queue.queueUrl,
        bandQueueUrls: Object.fromEntries(bands.map((band, index) => [band.name, bandQueues[index]!.queue.queueUrl])),
        objectStreamFailuresQueueUrl: objectStreamFailures.queueUrl,
      },
      settings,
      reservedConcurrency,
    );
    const common = { prefix, environment, removalPolicy, sourceMaps: props.sourceMaps ?? false };
    // api stays within API Gateway's 30 s; a queue-triggered function within its queue's visibility
    // timeout (which Lambda requires), so no message comes back while the invocation holding it runs.
    const api = handlerFunction(this, 'ApiFunction', { ...common, handler: 'api', timeout: Duration.seconds(29), memorySize: apiMemorySize });
    const policyChangeFunction = handlerFunction(this, 'PolicyChangeFunction', { ...common, handler: 'policy-change', timeout: Duration.seconds(30) });
    const bindingEnqueueFunction = handlerFunction(this, 'BindingEnqueueFunction', { ...common, handler: 'binding-enqueue', timeout: Duration.seconds(30) });
    const scheduleCycle = handlerFunction(this, 'ScheduleCycleFunction', {
      ...common,
      handler: 'schedule-cycle',
      timeout: Duration.minutes(1),
      reservedConcurrentExecutions: reservedConcurrency,
    });
    const reconcile = handlerFunction(this, 'ReconcileFunction', { ...common, handler: 'reconcile', timeout: Duration.minutes(1) });
    // Watches stream for minutes, which API Gateway cannot: a function URL streams its responses
    // (RESPONSE_STREAM) for up to the function's 15 minutes, then the client watches again.
    const watch = handlerFunction(this, 'WatchFunction', { ...common, handler: 'watch', timeout: Duration.minutes(15), memorySize: apiMemorySize });
    const watchUrl = (props.watchFunctionUrl ?? true)
      ? watch.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.AWS_IAM, invokeMode: lambda.InvokeMode.RESPONSE_STREAM })
      : undefined;

    // Informers read the objects table's change feed, its index by version (dynamodb-object-store.ts);
    // the API lists Preempted events from the events table's index by reason, and a watch of events
    // reads its index by write time (dynamodb-event-log.ts).
    for (const fn of [api, watch, policyChangeFunction, bindingEnqueueFunction, scheduleCycle, reconcile]) {
      NagSuppressions.addResourceSuppressions(
        fn.role!,
        [
          {
            id: 'AwsSolutions-IAM5',
            reason: 'The grant names the tables\' indexes (objects: the change feed byVersion; events: byReason and the watch feed byWriteTime) as DynamoDB grants do',
            appliesTo: [{ regex: '/^Resource::<(ObjectsTable|EventsTable)[A-Za-z0-9]*\\.Arn>\\/index\\/\\*$/g' }],
          },
        ],
        true,
      );
    }

    // What each handler does, and nothing more (see lib/controllers).
    // The watch function serves the whole API (watches streamed), so it may do what api does.
    for (const server of [api, watch]) {
      objects.grantReadWriteData(server);
      eventLog.grantReadData(server);
      bindingEnqueue.queue.grantSendMessages(server);
      // The queue status (GET /outrank/v1/queues) reads how much every queue holds and what each gave up on.
      for (const fifo of [policyChange, bindingEnqueue, scheduleTick, ...bandQueues]) {
        fifo.queue.grant(server, ...READ_QUEUE_STATUS);
        fifo.deadLetterQueue.grant(server, ...READ_QUEUE_STATUS);
      }
      objectStreamFailures.grant(server, ...READ_QUEUE_STATUS);
    }

    policyChange.queue.grantConsumeMessages(policyChangeFunction);
    // A policy over many templates hands those past the first hundred on to its own queue (template-claims.ts).
    policyChange.queue.grantSendMessages(policyChangeFunction);
    objects.grantReadWriteData(policyChangeFunction);
    eventLog.grant(policyChangeFunction, APPEND_EVENT);
    bindingEnqueue.queue.grantSendMessages(policyChangeFunction);
    // A binding it has just written goes straight to its band (lib/controllers/band-enqueue.ts).
    for (const band of bandQueues) band.queue.grantSendMessages(policyChangeFunction);
    scheduleTick.queue.grantSendMessages(policyChangeFunction);

    bindingEnqueue.queue.grantConsumeMessages(bindingEnqueueFunction);
    objects.grantReadWriteData(bindingEnqueueFunction);
    for (const band of bandQueues) band.queue.grantSendMessages(bindingEnqueueFunction);
    scheduleTick.queue.grantSendMessages(bindingEnqueueFunction);

    scheduleTick.queue.grantConsumeMessages(scheduleCycle);
    for (const band of bandQueues) band.queue.grantConsumeMessages(scheduleCycle);
    objects.grantReadWriteData(scheduleCycle);
    eventLog.grant(scheduleCycle, APPEND_EVENT);
    bindingEnqueue.queue.grantSendMessages(scheduleCycle);

    objects.grantReadData(reconcile);
    bindingEnqueue.queue.grantSendMessages(reconcile);
    policyChange.queue.grantSendMessages(reconcile);

    if (props.lambdaEventSources ?? true) {
      // Every write of a policy, template or cluster, whoever made it: no write goes unannounced.
      policyChangeFunction.addEventSource(
        new DynamoEventSource(objects, {
          startingPosition: lambda.StartingPosition.TRIM_HORIZON,
          batchSize: OBJECT_STREAM_BATCH_SIZE,
          filters: [lambda.FilterCriteria.filter(OBJECT_STREAM_FILTER)],
          reportBatchItemFailures: true,
          bisectBatchOnError: true,
          retryAttempts: OBJECT_STREAM_RETRIES,
          onFailure: new SqsDlq(objectStreamFailures),
        }),
      );
      this.watchObjectStream(policyChangeFunction);
      policyChangeFunction.addEventSource(new SqsEventSource(policyChange.queue, { batchSize: 10, reportBatchItemFailures: true }));
      bindingEnqueueFunction.addEventSource(new SqsEventSource(bindingEnqueue.queue, { batchSize: 10, reportBatchItemFailures: true }));
      // A tick carries nothing: the cycle pulls the band queues itself. One tick to an invocation, so that
      // ticks of different groups start cycles side by side rather than one cycle for a batch of them.
      scheduleCycle.addEventSource(new SqsEventSource(scheduleTick.queue, { batchSize: 1 }));
    }
    // A periodic run that cannot start within its interval (say, schedule-cycle at its reserved
    // concurrency) is superseded by the next one rather than queued up behind it.
    for (const periodic of [scheduleCycle, reconcile]) periodic.configureAsyncInvoke({ maxEventAge: SCHEDULE_INTERVAL, retryAttempts: 0 });
    new events.Rule(this, 'ScheduleCycleSchedule', {
      description: 'Starts a schedule cycle even if a tick was lost',
      schedule: events.Schedule.rate(SCHEDULE_INTERVAL),
      targets: [new targets.LambdaFunction(scheduleCycle)],
    });
    new events.Rule(this, 'ReconcileSchedule', {
      description: 'Requeues unschedulable bindings that are due and fails over bindings on clusters that are not Ready',
      schedule: events.Schedule.rate(SCHEDULE_INTERVAL),
      targets: [new targets.LambdaFunction(reconcile)],
    });
    new events.Rule(this, 'ResyncSchedule', {
      description: 'Sends the templates whose binding is out of step to policy-change again, in case the notice of a write was lost',
      schedule: events.Schedule.rate(RESYNC_INTERVAL),
      targets: [new targets.LambdaFunction(reconcile, { event: events.RuleTargetInput.fromObject({ resync: true }) })],
    });

    const httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      apiName: `${prefix}-api`,
      description: 'outrank Kubernetes-style API; every request is signed with SigV4 (IAM authorization)',
      createDefaultStage: false,
      // One catch-all route: the api handler routes the Kubernetes paths itself and answers a Status for the rest.
      defaultIntegration: new HttpLambdaIntegration('ApiIntegration', api),
      defaultAuthorizer: new HttpIamAuthorizer(),
    });
    const stage = new apigwv2.HttpStage(this, 'HttpApiStage', {
      httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.apiThrottle ?? DEFAULT_API_THROTTLE,
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(
          new logs.LogGroup(this, 'HttpApiAccessLogs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy }),
        ),
        format: ACCESS_LOG_FORMAT,
      },
    });

    new CfnOutput(this, OUTPUTS.apiUrl, { value: stage.url, description: 'HTTP API (IAM authorization: sign requests with SigV4, service execute-api)' });
    new CfnOutput(this, OUTPUTS.apiInvokeArn, { value: httpApi.arnForExecuteApi(), description: 'Resource for execute-api:Invoke in the callers\' IAM policies' });
    if (watchUrl) new CfnOutput(this, OUTPUTS.watchUrl, { value: watchUrl.url, description: 'The API with watch, streamed (IAM authorization: sign requests with SigV4, service lambda)' });
    new CfnOutput(this, OUTPUTS.objectsTable, { value: objects.tableName });
    new CfnOutput(this, OUTPUTS.eventsTable, { value: eventLog.tableName });
    for (const queue of [policyChange, bindingEnqueue, scheduleTick, ...bandQueues]) {
      new CfnOutput(this, queueUrlOutput(queue.node.id), { value: queue.queue.queueUrl });
      new CfnOutput(this, deadLetterQueueUrlOutput(queue.node.id), { value: queue.deadLetterQueue.queueUrl });
    }
    new CfnOutput(this, queueUrlOutput(QUEUE_IDS.objectStreamFailures), { value: objectStreamFailures.queueUrl });
  }

  /**
   * Where the objects table's event source mapping reports a batch it gave up on (a standard queue:
   * Lambda takes no FIFO queue as an on-failure destination), alarmed as the dead-letter queues are.
   */
  private objectStreamFailuresQueue(queueName: string, removalPolicy: RemovalPolicy): sqs.Queue {
    const failures = new sqs.Queue(this, QUEUE_IDS.objectStreamFailures, {
      queueName,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });
    NagSuppressions.addResourceSuppressions(failures, [
      { id: 'AwsSolutions-SQS3', reason: 'It is the on-failure destination of the objects table\'s event source mapping: a dead-letter queue in all but name' },
    ]);
    new cloudwatch.Alarm(this, 'ObjectStreamFailuresAlarm', {
      alarmDescription: `Stream batches in ${queueName}: policy-change gave up on writes after ${OBJECT_STREAM_RETRIES} retries`,
      metric: failures.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    return failures;
  }

  /** What reading the objects table's stream takes beyond its grants, and an alarm when policy-change falls behind it. */
  private watchObjectStream(consumer: lambda.IFunction): void {
    NagSuppressions.addResourceSuppressions(
      consumer.role!,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: 'A DynamoDB event source mapping needs dynamodb:ListStreams, which has no resource-level permissions',
          appliesTo: ['Resource::*'],
        },
      ],
      true,
    );
    new cloudwatch.Alarm(this, 'ObjectStreamIteratorAgeAlarm', {
      alarmDescription: 'policy-change is more than 5 minutes behind the objects table\'s stream',
      metric: consumer.metric('IteratorAge', { period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: Duration.minutes(5).toMilliseconds(),
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }

}

import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueDefinition } from '../functions/adapters/definitions';

/** A dead letter waits as long as SQS allows, so the alarm leaves time to look at it. */
const DEAD_LETTER_RETENTION = Duration.days(14);

/**
 * One of outrank's SQS FIFO queues as its definition describes it, with its dead-letter queue and an
 * alarm as soon as anything lands there: a dead letter is a change the system gave up on.
 */
export class FifoQueue extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly deadLetterAlarm: cloudwatch.Alarm;

  constructor(
    scope: Construct,
    id: string,
    readonly definition: QueueDefinition,
  ) {
    super(scope, id);
    // Deduplication ids are always explicit (chosen by the senders), never derived from the body.
    const fifo = { fifo: true, contentBasedDeduplication: false, encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true };
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      ...fifo,
      queueName: definition.deadLetterName,
      retentionPeriod: DEAD_LETTER_RETENTION,
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      ...fifo,
      queueName: definition.name,
      visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: definition.maxReceiveCount },
    });
    this.deadLetterAlarm = new cloudwatch.Alarm(this, 'DeadLetterAlarm', {
      alarmDescription: `Messages in ${definition.deadLetterName}: ${definition.name} gave up on them after ${definition.maxReceiveCount} receives`,
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }

  /** Alarms when the oldest message has waited longer than `maxAge`: nothing is draining the queue fast enough. */
  addAgeAlarm(maxAge: Duration): cloudwatch.Alarm {
    return new cloudwatch.Alarm(this, 'AgeAlarm', {
      alarmDescription: `The oldest message in ${this.definition.name} has waited more than ${maxAge.toHumanString()}`,
      metric: this.queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: maxAge.toSeconds(),
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
}

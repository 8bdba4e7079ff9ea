/**
 * GET /outrank/v1/queues on the real queues: every queue of the system with what it gave up on — the
 * schedule tick queue's dead letters and the objects stream's failures among them — and `outrank check`
 * flagging each.
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outrank } from '../bin/support/run-cli';
import { deadLetterUrl } from '../reliability/support/aws-state';
import { Pipeline } from './pipeline';

let pipeline: Pipeline;

/** The queue status's items by queue name. */
async function queueStatus(): Promise<Record<string, { visible: number; inFlight: number; deadLettered: number }>> {
  const { status, body } = await pipeline.request('GET', '/outrank/v1/queues');
  expect(status).toBe(200);
  return Object.fromEntries((body.items as Array<{ name: string; visible: number; inFlight: number; deadLettered: number }>).map(({ name, ...depth }) => [name, depth]));
}

describe('the queue status on the real queues', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    // policy-change fails on every batch with the cluster named "poison" in it, as on a bug.
    pipeline = await Pipeline.start({
      wrap: {
        stream: (handler) => async (event, context) => {
          if (event.Records.some((record) => record.dynamodb?.Keys?.sk?.S?.endsWith('poison'))) throw new Error('cannot handle it');
          return handler(event, context);
        },
      },
    });
  });
  afterAll(() => pipeline.stop());

  it('lists every queue of the stack, the schedule tick and the objects stream\'s failures included, all idle and empty at first', async () => {
    const queues = await queueStatus();
    expect(Object.keys(queues)).toEqual([
      'policy-change',
      'binding-enqueue',
      'schedule-tick',
      'schedule-system',
      'schedule-high',
      'schedule-default',
      'schedule-low',
      'policy-change-stream-failures',
    ]);
    expect(Object.values(queues).every((queue) => queue.visible === 0 && queue.inFlight === 0 && queue.deadLettered === 0)).toBe(true);
  });

  it('counts a stream batch policy-change gave up on and a dead-lettered tick as given up on, and outrank check flags both', async () => {
    const cluster = { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'poison' } };
    expect((await pipeline.request('POST', '/apis/cluster.karmada.io/v1alpha1/clusters', cluster)).status).toBe(201);
    // The local event source mapping tries the batch as the stack's does (11 attempts), then reports it.
    const [objectStream] = pipeline.functions.pollers;
    for (let attempt = 0; attempt < 11; attempt += 1) await objectStream!.pollOnce(0);
    expect(pipeline.errors.map(String)).toContainEqual(expect.stringMatching(/gave up on stream record \d+ of shard .* after 11 attempts/));
    // A tick received too often, as the redrive policy moves one.
    const { aws } = pipeline;
    await aws.clients.sqs.send(
      new SendMessageCommand({ QueueUrl: await deadLetterUrl(aws, aws.definitions.scheduleTickQueue), MessageBody: '{"tick":true}', MessageGroupId: 'schedule-0', MessageDeduplicationId: 'dead-tick' }),
    );

    const queues = await queueStatus();
    // Nothing works the failures queue: what it holds is failures, never work in progress.
    expect(queues['policy-change-stream-failures']).toEqual({ visible: 0, inFlight: 0, deadLettered: 1 });
    expect(queues['schedule-tick']).toMatchObject({ deadLettered: 1 });

    const result = await outrank('check', '--only', 'lost-work', '-o', 'json', '--server', pipeline.url);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { violations: Array<{ rule: string; object: string; message: string }>; deadLettered: Record<string, number> };
    expect(report.violations.filter((violation) => violation.rule === 'dead-letter-queue-empty')).toEqual([
      { rule: 'dead-letter-queue-empty', object: 'Queue schedule-tick', message: '1 message(s) given up on' },
      { rule: 'dead-letter-queue-empty', object: 'Queue policy-change-stream-failures', message: '1 message(s) given up on' },
    ]);
    expect(report.deadLettered).toMatchObject({ 'schedule-tick': 1, 'policy-change-stream-failures': 1 });
  });
});

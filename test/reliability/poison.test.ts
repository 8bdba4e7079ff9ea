import { readFile } from 'node:fs/promises';
import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../lib/simulate/load-scenario';
import { runScenario } from '../../lib/simulate/run-scenario';
import type { QueueDefinition } from '../../functions/adapters/definitions';
import { comparable, Pipeline } from '../integration/pipeline';
import { deadLetterUrl, depthOf, queueUrls } from './support/aws-state';
import { settleWithRedelivery } from './support/redelivery';

/** Receives before a message goes to its dead-letter queue; small, so that poison gets there in seconds. */
const MAX_RECEIVES = 2;
const EXAMPLE = new URL('../../examples/000-binding-preemption.yaml', import.meta.url);

/** Each malformed twice over: not JSON at all, and JSON of the wrong shape. */
const POISON = {
  policyChange: ['{"ref": {"kind": "Deployment"', '{"ref": {"group": "apps", "kind": "Deployment", "namespace": 7, "name": "x"}}'],
  bindingEnqueue: ['binding please', '{"binding": 42, "resourceVersion": "1"}'],
  band: ['<xml/>', '{"binding": {"kind": "ResourceBinding"}, "priority": "high"}'],
};

let pipeline: Pipeline;

async function poison(url: string, bodies: readonly string[]): Promise<void> {
  for (const [index, body] of bodies.entries()) {
    await pipeline.aws.clients.sqs.send(
      new SendMessageCommand({ QueueUrl: url, MessageBody: body, MessageGroupId: `poison-${index}`, MessageDeduplicationId: `poison-${index}` }),
    );
  }
}

async function deadLetters(queue: QueueDefinition): Promise<string[]> {
  const QueueUrl = await deadLetterUrl(pipeline.aws, queue);
  const received = await pipeline.aws.clients.sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 0 }));
  return (received.Messages ?? []).map((message) => message.Body ?? '').sort();
}

beforeAll(async () => {
  pipeline = await Pipeline.start({ redelivery: { visibilityTimeoutSeconds: 1, maxReceiveCount: MAX_RECEIVES } });
  const { resources } = pipeline.aws;
  // The poison is first in each queue; the example's work comes in behind it, in other message groups.
  await poison(resources.policyChangeQueueUrl, POISON.policyChange);
  await poison(resources.bindingEnqueueQueueUrl, POISON.bindingEnqueue);
  await poison(resources.bandQueueUrls.default!, POISON.band);
  for (const step of loadScenario(await readFile(EXAMPLE, 'utf8')).steps) {
    expect(await pipeline.step(step)).toEqual([]);
    await settleWithRedelivery(pipeline);
  }
}, 120_000);

afterAll(() => pipeline?.stop());

describe(`poison messages end in their dead-letter queue after ${MAX_RECEIVES} receives, without blocking the others`, () => {
  it('every other binding is scheduled as outrank simulate schedules it', async () => {
    const simulated = await runScenario(loadScenario(await readFile(EXAMPLE, 'utf8')));
    expect(comparable(await pipeline.bindings())).toEqual(comparable(simulated.bindings));
  });

  it.each([
    ['policy-change', 'policyChangeQueue', POISON.policyChange],
    ['binding-enqueue', 'bindingEnqueueQueue', POISON.bindingEnqueue],
  ] as const)('%s: its dead-letter queue holds the poison, and only that', async (_name, queue, bodies) => {
    expect(await deadLetters(pipeline.aws.definitions[queue])).toEqual([...bodies].sort());
  });

  it('the default band: its dead-letter queue holds the poison, and only that', async () => {
    expect(await deadLetters(pipeline.aws.definitions.bandQueues.get('default')!)).toEqual([...POISON.band].sort());
  });

  it('no queue holds anything else', async () => {
    for (const url of queueUrls(pipeline.aws)) expect(await depthOf(pipeline.aws, url), url).toEqual({ visible: 0, inFlight: 0 });
  });
});

import { readdir, readFile } from 'node:fs/promises';
import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { ScheduleCycleController } from '../../lib/controllers/schedule-cycle';
import { loadScenario } from '../../lib/simulate/load-scenario';
import { runScenario, type SimulationResult } from '../../lib/simulate/run-scenario';
import { scenarioSchema, type Scenario } from '../../lib/simulate/scenario';
import { controllerContext } from '../../functions/context';
import type { SqsHandler } from '../../functions/local/sqs-poller';
import type { StreamHandler } from '../../functions/local/stream-poller';
import { comparable, Pipeline } from '../integration/pipeline';
import { readSystemState } from './support/aws-state';

const examplesDirectory = new URL('../../examples/', import.meta.url);

interface Example {
  readonly name: string;
  readonly scenario: Scenario;
  readonly simulated: SimulationResult;
}

async function example(name: string, scenario: Scenario): Promise<Example> {
  return { name, scenario, simulated: await runScenario(scenario) };
}

const examples = await Promise.all(
  (await readdir(examplesDirectory))
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .map(async (file) => example(file, loadScenario(await readFile(new URL(file, examplesDirectory), 'utf8')))),
);
/** The examples in which something is preempted: a binding, or a template taken by another policy. */
const withPreemption = examples.filter(({ simulated: { metrics } }) => metrics.bindingPreemptions > 0 || metrics.policyPreemptions.success > 0);

/**
 * In the examples each step brings work of one band at a time. Here both bands wait together: taken
 * highest first, urgent is placed and batch waits; taken lowest first, batch is placed, then urgent
 * preempts it. Either way, urgent ends placed and batch waiting for room.
 */
const bandsTogether = await example(
  'urgent and batch in one step',
  scenarioSchema.parse({
    steps: [
      {
        apply: [
          { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'm1' }, status: { resourceSummary: { allocatable: { cpu: '4', pods: '110' } } } },
          { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'batch' }, value: 10, preemptionPolicy: 'Never' },
          { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'urgent' }, value: 1000 },
          {
            apiVersion: 'policy.karmada.io/v1alpha1',
            kind: 'PropagationPolicy',
            metadata: { name: 'by-pod-priority', namespace: 'default' },
            spec: {
              resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
              schedulePriority: { priorityClassSource: 'PodPriorityClass' },
              placement: { clusterAffinity: { clusterNames: ['m1'] } },
            },
          },
          ...['batch', 'urgent'].map((name) => ({
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: { name, namespace: 'default' },
            spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { priorityClassName: name, containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu: '3' } } }] } } },
          })),
        ],
      },
    ],
  }),
);

/** A schedule cycle that pulls the bands lowest first, against the priority order the real one keeps. */
function lowestBandFirst(): Promise<unknown> {
  const context = controllerContext();
  return new ScheduleCycleController({ ...context, config: { ...context.config, bands: [...context.config.bands].reverse() } }).run();
}

/** The batch with its message groups in reverse order; within a group FIFO order is kept, as SQS keeps it. */
function groupsReversed(records: readonly SQSRecord[]): SQSRecord[] {
  const groups = new Map<string, SQSRecord[]>();
  for (const record of records) {
    const group = record.attributes.MessageGroupId ?? record.messageId;
    groups.set(group, [...(groups.get(group) ?? []), record]);
  }
  return [...groups.values()].reverse().flat();
}

/**
 * Every batch handed to its function twice before it is deleted, as an at-least-once queue may, with
 * its message groups in reverse order; the schedule-cycle function (started by ticks) replaced by one
 * that pulls the bands lowest first.
 */
/** Stream batches come in order (a shard is read in order), but may come again. */
const twice = (handler: StreamHandler): StreamHandler => async (event, context) => {
  await handler(event, context);
  return handler(event, context);
};

const twiceAndReordered = (handler: SqsHandler): SqsHandler => async (event, context) => {
  const reordered = { Records: groupsReversed(event.Records) };
  const invoke = () => (context.functionName === 'outrank-schedule-cycle' ? lowestBandFirst() : handler(reordered, context));
  await invoke();
  return invoke();
};

async function runReordered({ scenario }: Example) {
  const pipeline = await Pipeline.start({ wrap: { queue: twiceAndReordered, stream: twice } });
  try {
    for (const step of scenario.steps) {
      await pipeline.step(step);
      await pipeline.settle();
    }
    expect(pipeline.errors).toEqual([]);
    return { bindings: await pipeline.bindings(), state: await readSystemState(pipeline.aws) };
  } finally {
    await pipeline.stop();
  }
}

const preemptions = (events: readonly { reason: string }[]) => events.filter((event) => event.reason === 'Preempted').length;

describe('every message twice, batches reversed and bands lowest first: the final state of outrank simulate', () => {
  it('the examples with preemption are these', () => {
    expect(withPreemption.map((e) => e.name)).toEqual(['000-binding-preemption.yaml', '001-preemptibility.yaml', '002-policy-preemption.yaml']);
  });

  it.each(withPreemption.map((e) => [e.name, e] as const))('%s', async (_name, example) => {
    const { bindings } = await runReordered(example);
    expect(comparable(bindings)).toEqual(comparable(example.simulated.bindings));
  });

  it('urgent and batch waiting in two bands at once: batch is placed first, then preempted', async () => {
    const { bindings, state } = await runReordered(bandsTogether);
    expect(comparable(bindings)).toEqual(comparable(bandsTogether.simulated.bindings));
    // The order did change what happened on the way: simulate preempted nobody.
    expect([preemptions(bandsTogether.simulated.events), preemptions(state.events)]).toEqual([0, 1]);
  });
});

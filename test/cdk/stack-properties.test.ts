import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { cdkJsonContext, outrankApp } from '../../cdk/outrank-app';
import { OutrankStack } from '../../cdk/outrank-stack';
import { DEFAULT_CONFIG } from '../../lib/config';
import { TemplateModel } from './support/template-model';

const TENANCY = { admins: ['arn:aws:iam::111111111111:role/platform'], tenants: [{ principals: ['arn:aws:iam::111111111111:role/team-a'], namespaces: ['team-a'] }] };

// Context as `cdk deploy -c key=value` passes it: strings. Bundling is skipped (the bundles are not
// what this file checks), which keeps this second synthesis quick.
const { stack } = outrankApp({
  ...cdkJsonContext(),
  'aws:cdk:bundling-stacks': [],
  'outrank:stackName': 'Acme',
  'outrank:prefix': 'acme',
  'outrank:settings': JSON.stringify({
    bands: [{ name: 'urgent', minPriority: 500 }, { name: 'rest', minPriority: 0 }],
    gates: { PropagationPolicyPreemption: false },
    tenancy: TENANCY,
  }),
  'outrank:scheduleCycleReservedConcurrency': '3',
  'outrank:removalPolicy': 'destroy',
  'outrank:lambdaEventSources': 'false',
  'outrank:sourceMaps': 'true',
  'outrank:watchFunctionUrl': 'false',
  'outrank:apiMemorySize': '1769',
});
const model = new TemplateModel(Template.fromStack(stack));

describe('stack properties from context', () => {
  it('name the stack and prefix every resource name', () => {
    expect(stack.stackName).toBe('Acme');
    const names = model.ofType('AWS::SQS::Queue').map(([, queue]) => queue.Properties.QueueName as string);
    // The stream-failures queue too, without event source mappings: the local runtime's stream poller reports to it.
    expect(names.sort()).toEqual(
      [
        ...['policy-change', 'binding-enqueue', 'schedule-tick', 'schedule-urgent', 'schedule-rest'].flatMap((name) => [`acme-${name}.fifo`, `acme-${name}-dlq.fifo`]),
        'acme-policy-change-stream-failures',
      ].sort(),
    );
    expect(model.ofType('AWS::Lambda::Function').every(([, fn]) => String(fn.Properties.FunctionName).startsWith('acme-'))).toBe(true);
  });

  it('pass the settings to every function, defaults filled in and the tenancy kept', () => {
    for (const [, fn] of model.ofType('AWS::Lambda::Function')) {
      expect(JSON.parse(fn.Properties.Environment.Variables.OUTRANK_SETTINGS)).toEqual({
        gates: { ...DEFAULT_CONFIG.gates, PropagationPolicyPreemption: false },
        schedulerNames: ['default-scheduler'],
        preemptibleBelowPriority: DEFAULT_CONFIG.preemptibleBelowPriority,
        unschedulableFlushSeconds: DEFAULT_CONFIG.unschedulableRequeueMs / 1_000,
        bands: [
          { name: 'urgent', minPriority: 500 },
          { name: 'rest', minPriority: 0 },
        ],
        tenancy: TENANCY,
      });
    }
  });

  it('set the reserved concurrency, the removal policy, and leave out the event source mappings and the watch URL', () => {
    expect(model.resources[model.functionId('acme-schedule-cycle')]!.Properties.ReservedConcurrentExecutions).toBe(3);
    // The ticks that start cycles are spread over as many message groups as cycles may run.
    for (const [, fn] of model.ofType('AWS::Lambda::Function')) expect(fn.Properties.Environment.Variables.SCHEDULE_CYCLES).toBe('3');
    expect(model.ofType('AWS::DynamoDB::Table').map(([, table]) => table.DeletionPolicy)).toEqual(['Delete', 'Delete']);
    expect(model.ofType('AWS::Lambda::EventSourceMapping')).toEqual([]);
    expect(model.ofType('AWS::Lambda::Url')).toEqual([]);
  });

  it('give the functions serving the API the memory asked, what-if copying the whole live state; the others keep 512 MB', () => {
    const memory = Object.fromEntries(model.ofType('AWS::Lambda::Function').map(([, fn]) => [fn.Properties.FunctionName, fn.Properties.MemorySize]));
    expect(memory).toEqual({
      'acme-api': 1769,
      'acme-watch': 1769,
      'acme-policy-change': 512,
      'acme-binding-enqueue': 512,
      'acme-schedule-cycle': 512,
      'acme-reconcile': 512,
    });
  });

  it('ship source maps when asked, with Node.js told to use them', () => {
    for (const [, fn] of model.ofType('AWS::Lambda::Function')) expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
  });
});

describe('stack properties that cannot work', () => {
  it.each([
    ['outrank:settings', 'bands=low'],
    ['outrank:scheduleCycleReservedConcurrency', 'one'],
    ['outrank:removalPolicy', 'keep'],
    ['outrank:lambdaEventSources', 'no'],
    ['outrank:sourceMaps', 'yes'],
    ['outrank:watchFunctionUrl', 'off'],
    ['outrank:apiMemorySize', '1GB'],
  ])('are refused from context: %s=%s', (key, value) => {
    expect(() => outrankApp({ [key]: value })).toThrow(key);
  });

  it.each([
    ['a band name SQS cannot carry', { settings: { bands: [{ name: 'Urgent!', minPriority: 0 }] } }],
    ['no band at all', { settings: { bands: [] } }],
    ['an unknown gate', { settings: { gates: { Preemption: true } } as never }],
    ['no concurrency for schedule cycles', { scheduleCycleReservedConcurrency: 0 }],
    ['less memory for the API than Lambda gives', { apiMemorySize: 64 }],
    ['more memory for the API than Lambda gives', { apiMemorySize: 20_480 }],
  ])('are refused before anything is built: %s', (_, props) => {
    expect(() => new OutrankStack(new App(), 'Refused', props)).toThrow();
  });
});

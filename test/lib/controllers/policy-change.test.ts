import { describe, expect, it, vi } from 'vitest';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import type { FeatureGates } from '../../../lib/config';
import { ConflictError, type Write } from '../../../lib/ports/object-store';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import {
  applyAll,
  bindingOf,
  cluster,
  clusterPropagationPolicy,
  deployment,
  eventsWithReason,
  findBinding,
  newSystem,
  placementOf,
  placementOfDeployment,
  propagationPolicy,
  refs,
  SPEC,
  type Manifest,
} from './support';

const NGINX = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' };
const NGINX_IN_DEFAULT = { ...NGINX, namespace: 'default' };
const FLEET = ['member1', 'member2', 'member3'].map((name) => cluster(name, { cpu: '4' }));

function newSystemWith(gates: Partial<FeatureGates> = {}): MemorySystem {
  return newSystem({ gates });
}

function onClusters(...clusterNames: string[]) {
  return { clusterAffinity: { clusterNames } };
}

/** Which policy a binding says claimed its template: "PropagationPolicy/<name>" or "ClusterPropagationPolicy/<name>". */
function claimantOf(binding: ResourceBinding): string {
  const labels = binding.metadata.labels ?? {};
  const cpp = labels['clusterpropagationpolicy.karmada.io/name'];
  return cpp ? `ClusterPropagationPolicy/${cpp}` : `PropagationPolicy/${labels['propagationpolicy.karmada.io/name']}`;
}

describe(`policy preemption takes over claimed templates (${SPEC.policy}, "PreemptionBehavior")`, () => {
  it(`${SPEC.policy}: the document's example: nginx-propagation-preemption (priority 3, Always) takes nginx from nginx-propagation (priority 2)`, async () => {
    const system = newSystemWith();
    await applyAll(system, [
      ...FLEET,
      propagationPolicy('nginx-propagation', { resourceSelectors: [NGINX], priority: 2, placement: onClusters('member1', 'member2') }),
      deployment('nginx'),
    ]);
    const before = await bindingOf(system, 'nginx');
    expect(before.metadata.labels).toEqual({
      'propagationpolicy.karmada.io/name': 'nginx-propagation',
      'propagationpolicy.karmada.io/namespace': 'default',
    });
    expect(placementOf(before)).toEqual({ member1: 1, member2: 1 });

    await applyAll(system, [
      propagationPolicy('nginx-propagation-preemption', {
        resourceSelectors: [NGINX],
        priority: 3,
        preemption: 'Always',
        placement: onClusters('member3'),
      }),
    ]);
    const after = await bindingOf(system, 'nginx');
    expect(claimantOf(after)).toBe('PropagationPolicy/nginx-propagation-preemption');
    expect(placementOf(after)).toEqual({ member3: 1 });

    const [event, ...more] = await eventsWithReason(system, 'PreemptPolicySucceed');
    expect(more).toEqual([]);
    expect(event).toMatchObject({ type: 'Normal', involvedObject: { kind: 'Deployment', namespace: 'default', name: 'nginx' } });
    expect(event!.message).toContain('nginx-propagation-preemption');
    expect(system.metrics.counter('PolicyPreemptions', { result: 'success' })).toBe(1);
    expect(system.metrics.counter('PolicyPreemptions', { result: 'error' })).toBe(0);
  });
});

interface TakeoverCase {
  readonly name: string;
  readonly claimant: Manifest;
  readonly challenger: Manifest;
  readonly gates?: Partial<FeatureGates>;
  readonly takes: boolean;
}

function pp(name: string, spec: Manifest): Manifest {
  return propagationPolicy(name, spec);
}

function cpp(name: string, spec: Manifest): Manifest {
  return clusterPropagationPolicy(name, spec);
}

const CLAIMANT_PLACEMENT = { placement: onClusters('member1') };
const CHALLENGER_PLACEMENT = { placement: onClusters('member3') };

const TAKEOVER_CASES: readonly TakeoverCase[] = [
  {
    name: 'a PropagationPolicy with strictly higher priority and Always takes over',
    claimant: pp('claimant', { resourceSelectors: [NGINX], priority: 1, ...CLAIMANT_PLACEMENT }),
    challenger: pp('challenger', { resourceSelectors: [NGINX], priority: 2, preemption: 'Always', ...CHALLENGER_PLACEMENT }),
    takes: true,
  },
  {
    name: 'equal priority never preempts',
    claimant: pp('claimant', { resourceSelectors: [NGINX], priority: 2, ...CLAIMANT_PLACEMENT }),
    challenger: pp('challenger', { resourceSelectors: [NGINX], priority: 2, preemption: 'Always', ...CHALLENGER_PLACEMENT }),
    takes: false,
  },
  {
    name: 'equal priority never preempts, even with a more specific selector (no implicit priority)',
    claimant: pp('claimant', {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { app: 'nginx' } } }],
      ...CLAIMANT_PLACEMENT,
    }),
    challenger: pp('challenger', { resourceSelectors: [NGINX], preemption: 'Always', ...CHALLENGER_PLACEMENT }),
    takes: false,
  },
  {
    name: 'lower priority never preempts',
    claimant: pp('claimant', { resourceSelectors: [NGINX], priority: 5, ...CLAIMANT_PLACEMENT }),
    challenger: pp('challenger', { resourceSelectors: [NGINX], priority: 4, preemption: 'Always', ...CHALLENGER_PLACEMENT }),
    takes: false,
  },
  {
    name: 'higher priority without preemption: Always leaves the claim alone (claims are sticky)',
    claimant: pp('claimant', { resourceSelectors: [NGINX], priority: 1, ...CLAIMANT_PLACEMENT }),
    challenger: pp('challenger', { resourceSelectors: [NGINX], priority: 9, ...CHALLENGER_PLACEMENT }),
    takes: false,
  },
  {
    name: 'a PropagationPolicy takes from a ClusterPropagationPolicy whatever the priorities',
    claimant: cpp('claimant', { resourceSelectors: [NGINX_IN_DEFAULT], priority: 100, ...CLAIMANT_PLACEMENT }),
    challenger: pp('challenger', { resourceSelectors: [NGINX], priority: 0, preemption: 'Always', ...CHALLENGER_PLACEMENT }),
    takes: true,
  },
  {
    name: 'a ClusterPropagationPolicy never takes from a PropagationPolicy',
    claimant: pp('claimant', { resourceSelectors: [NGINX], priority: 0, ...CLAIMANT_PLACEMENT }),
    challenger: cpp('challenger', { resourceSelectors: [NGINX_IN_DEFAULT], priority: 100, preemption: 'Always', ...CHALLENGER_PLACEMENT }),
    takes: false,
  },
  {
    name: 'a ClusterPropagationPolicy takes from a lower-priority ClusterPropagationPolicy',
    claimant: cpp('claimant', { resourceSelectors: [NGINX_IN_DEFAULT], priority: 1, ...CLAIMANT_PLACEMENT }),
    challenger: cpp('challenger', { resourceSelectors: [NGINX_IN_DEFAULT], priority: 2, preemption: 'Always', ...CHALLENGER_PLACEMENT }),
    takes: true,
  },
  {
    name: 'nothing is taken with the PropagationPolicyPreemption gate off',
    claimant: pp('claimant', { resourceSelectors: [NGINX], priority: 1, ...CLAIMANT_PLACEMENT }),
    challenger: pp('challenger', { resourceSelectors: [NGINX], priority: 2, preemption: 'Always', ...CHALLENGER_PLACEMENT }),
    gates: { PropagationPolicyPreemption: false },
    takes: false,
  },
];

describe(`who may take a claimed template (${SPEC.policy}, "Details about priority")`, () => {
  it.each(TAKEOVER_CASES)(`${SPEC.policy}: $name`, async ({ claimant, challenger, gates, takes }) => {
    const system = newSystemWith(gates);
    await applyAll(system, [...FLEET, claimant, deployment('nginx', { labels: { app: 'nginx' } })]);
    const claimantName = `${claimant.kind}/claimant`;
    expect(claimantOf(await bindingOf(system, 'nginx'))).toBe(claimantName);

    await applyAll(system, [challenger]);
    const binding = await bindingOf(system, 'nginx');
    expect(claimantOf(binding)).toBe(takes ? `${challenger.kind}/challenger` : claimantName);
    expect(placementOf(binding)).toEqual(takes ? { member3: 1 } : { member1: 1 });
    expect(await eventsWithReason(system, 'PreemptPolicySucceed')).toHaveLength(takes ? 1 : 0);
    expect(system.metrics.counter('PolicyPreemptions', { result: 'success' })).toBe(takes ? 1 : 0);
  });
});

interface PriorityDropCase {
  readonly name: string;
  /** Policies with preemption: Always, by name and priority. */
  readonly challengers: ReadonlyArray<readonly [string, number]>;
  readonly claimant: string;
}

const PRIORITY_DROP_CASES: readonly PriorityDropCase[] = [
  { name: 'priority A itself is in the range', challengers: [['at-a', 5]], claimant: 'at-a' },
  { name: 'a priority inside the range', challengers: [['between', 4]], claimant: 'between' },
  { name: 'priority B is not in the range (equal priority never preempts)', challengers: [['at-b', 3]], claimant: 'first' },
  { name: 'a priority below B', challengers: [['below', 2]], claimant: 'first' },
  { name: 'several in the range: the highest first', challengers: [['between', 4], ['at-a', 5]], claimant: 'at-a' },
];

describe(`a priority drop from A to B re-triggers preemption for (B, A] (${SPEC.policy}, "Corner cases")`, () => {
  it.each(PRIORITY_DROP_CASES)(`${SPEC.policy}: 5 → 3: $name`, async ({ challengers, claimant }) => {
    const system = newSystemWith();
    await applyAll(system, [
      ...FLEET,
      pp('first', { resourceSelectors: [NGINX], priority: 5, placement: onClusters('member1') }),
      deployment('nginx'),
    ]);
    await applyAll(
      system,
      challengers.map(([name, priority]) => pp(name, { resourceSelectors: [NGINX], priority, preemption: 'Always', placement: onClusters('member3') })),
    );
    expect(claimantOf(await bindingOf(system, 'nginx'))).toBe('PropagationPolicy/first');

    await system.objects.patch(refs.policy('first'), { spec: { priority: 3 } });
    await system.runUntilIdle();
    const binding = await bindingOf(system, 'nginx');
    expect(claimantOf(binding)).toBe(`PropagationPolicy/${claimant}`);
    expect(placementOf(binding)).toEqual(claimant === 'first' ? { member1: 1 } : { member3: 1 });
    expect(system.metrics.counter('PolicyPreemptions', { result: 'success' })).toBe(claimant === 'first' ? 0 : 1);
  });
});

describe(`deleting the claiming policy (${SPEC.policy})`, () => {
  it(`${SPEC.policy}: its templates go to the next matching policy, without counting a preemption`, async () => {
    const system = newSystemWith();
    await applyAll(system, [
      ...FLEET,
      pp('first', { resourceSelectors: [NGINX], priority: 5, placement: onClusters('member1') }),
      pp('fallback', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], placement: onClusters('member3') }),
      cpp('cluster-wide', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], placement: onClusters('member2') }),
      deployment('nginx'),
    ]);
    expect(claimantOf(await bindingOf(system, 'nginx'))).toBe('PropagationPolicy/first');

    await system.objects.delete(refs.policy('first'));
    await system.runUntilIdle();
    let binding = await bindingOf(system, 'nginx');
    expect(claimantOf(binding)).toBe('PropagationPolicy/fallback');
    expect(placementOf(binding)).toEqual({ member3: 1 });

    await system.objects.delete(refs.policy('fallback'));
    await system.runUntilIdle();
    binding = await bindingOf(system, 'nginx');
    expect(claimantOf(binding)).toBe('ClusterPropagationPolicy/cluster-wide');
    expect(placementOf(binding)).toEqual({ member2: 1 });
    expect(await eventsWithReason(system, 'PreemptPolicySucceed')).toEqual([]);
    expect(system.metrics.counter('PolicyPreemptions', { result: 'success' })).toBe(0);
  });

  it(`${SPEC.policy}: with no policy left the binding is deleted and its room goes to a waiting binding`, async () => {
    const system = newSystemWith();
    await applyAll(system, [
      cluster('member1', { cpu: '4' }),
      pp('first', { resourceSelectors: [NGINX], priority: 5 }),
      pp('others', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'waiting' }] }),
      deployment('nginx', { requests: { cpu: '4' } }),
    ]);
    await applyAll(system, [deployment('waiting', { requests: { cpu: '4' } })]);
    expect(await placementOfDeployment(system, 'waiting')).toEqual({});

    await system.objects.delete(refs.policy('first'));
    await system.runUntilIdle();
    expect(await findBinding(system, 'nginx')).toBeUndefined();
    expect(await placementOfDeployment(system, 'waiting')).toEqual({ member1: 1 });
  });
});

describe(`failed policy preemptions (${SPEC.policy}: "a corresponding metrics record" and events)`, () => {
  it(`${SPEC.policy}: a takeover whose writes keep conflicting records PreemptPolicyFailed and an error count, then succeeds on redelivery`, async () => {
    const system = newSystemWith();
    await applyAll(system, [...FLEET, pp('claimant', { resourceSelectors: [NGINX], priority: 1, ...CLAIMANT_PLACEMENT }), deployment('nginx')]);

    let refused = 0;
    const failures = system.context.config.maxCommitAttempts;
    const transact = system.store.transact.bind(system.store);
    vi.spyOn(system.store, 'transact').mockImplementation(async (writes: readonly Write[]) => {
      const takeover = writes.some(
        (w) => w.op === 'put' && (w.object as ResourceBinding).metadata.labels?.['propagationpolicy.karmada.io/name'] === 'challenger',
      );
      if (takeover && refused < failures) {
        refused += 1;
        throw new ConflictError([refs.binding('nginx')]);
      }
      return transact(writes);
    });

    await applyAll(system, [pp('challenger', { resourceSelectors: [NGINX], priority: 2, preemption: 'Always', ...CHALLENGER_PLACEMENT })]);
    expect(refused).toBe(failures);
    expect(claimantOf(await bindingOf(system, 'nginx'))).toBe('PropagationPolicy/claimant');
    const [failed, ...more] = await eventsWithReason(system, 'PreemptPolicyFailed');
    expect(more).toEqual([]);
    expect(failed).toMatchObject({ type: 'Warning', involvedObject: { kind: 'Deployment', name: 'nginx' } });
    expect(system.metrics.counter('PolicyPreemptions', { result: 'error' })).toBe(1);

    system.clock.advance(system.context.config.initialBackoffMs);
    await system.runUntilIdle();
    const binding = await bindingOf(system, 'nginx');
    expect(claimantOf(binding)).toBe('PropagationPolicy/challenger');
    expect(placementOf(binding)).toEqual({ member3: 1 });
    expect(system.metrics.counter('PolicyPreemptions', { result: 'success' })).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { checkInvariants } from '../../lib/check/invariants';
import { summarizeBinding } from '../../lib/simulate/run-scenario';
import { comparable } from '../integration/pipeline';
import { FAULT_KINDS, FaultPlan, type FaultKind } from './support/fault-plan';
import { FaultyMemorySystem } from './support/faulty-memory-system';
import { ARRIVAL, FULL_FLEET } from './support/preemption-scenario';

/** The reconcile runs on its schedule until a run finds nothing to queue; more rounds than that mean it never settles. */
const RECONCILE_ROUNDS = 5;

/**
 * The scenario with the fault: the fleet is filled without faults, then calls are counted from the
 * moment the urgent workload is sent, through the settling, redeliveries and the reconcile.
 */
async function run(fault?: { kind: FaultKind; k: number }) {
  const plan = new FaultPlan();
  const system = new FaultyMemorySystem(plan);
  await system.apply(FULL_FLEET);
  await system.settle();
  // The reconcile has run on its schedule before: it has read the change feeds once.
  await system.reconcile();
  await system.settle();
  plan.arm(fault);
  await system.apply(ARRIVAL);
  await system.settle();
  for (let round = 1; round <= RECONCILE_ROUNDS; round += 1) {
    const requeued = await system.reconcile();
    await system.settle();
    if (requeued === 0) break;
  }
  const state = await system.state();
  return { plan, system, state, placement: comparable(state.bindings.map(summarizeBinding)) };
}

const baseline = await run();
/** Every call the functions make in the fault-free run, from the urgent workload's arrival on. */
const calls = baseline.plan.calls.length;

describe('faults in memory: every call of the preemption scenario failed in turn (ports wrapped, each store, queue and event call counted)', () => {
  it('the fault-free run preempts low-v for urgent and places low-v again on m2', () => {
    const clusters = Object.fromEntries(baseline.placement.map((b) => [b.name, b.clusters]));
    expect(clusters).toEqual({
      'low-a-deployment': [{ name: 'm1', replicas: 1 }],
      'low-b-deployment': [{ name: 'm2', replicas: 1 }],
      'low-v-deployment': [{ name: 'm2', replicas: 1 }],
      'urgent-deployment': [{ name: 'm1', replicas: 1 }],
    });
    expect(checkInvariants(baseline.state).summary.preemptions).toBe(1);
    expect(baseline.system.errors).toEqual([]);
    // Every function makes calls after the arrival, so every function is failed somewhere.
    expect(new Set(baseline.plan.calls.map((c) => c.caller))).toEqual(new Set(['api', 'policy-change', 'binding-enqueue', 'schedule-cycle', 'reconcile']));
  });

  it.each(FAULT_KINDS)(`%s at each of the ${calls} calls: the invariants hold and the placement is the fault-free one`, async (kind) => {
    const failures: Array<{ k: number; function: string; call: string; problem: unknown }> = [];
    for (let k = 1; k <= calls; k += 1) {
      const faulted = await run({ kind, k });
      const { caller, call } = baseline.plan.calls[k - 1]!;
      const where = { k, function: caller, call };
      const report = checkInvariants(faulted.state);
      if (!faulted.plan.injected) failures.push({ ...where, problem: 'the fault was never injected' });
      else if (!report.ok) failures.push({ ...where, problem: report.violations });
      else if (JSON.stringify(faulted.placement) !== JSON.stringify(baseline.placement)) {
        failures.push({ ...where, problem: faulted.placement.map((b) => `${b.name}: ${JSON.stringify(b.clusters)} ${b.conditions.map((c) => c.reason).join(',')}`) });
      }
    }
    expect(failures).toEqual([]);
  });
});

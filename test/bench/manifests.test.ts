import { describe, expect, it } from 'vitest';
import { decodeObject } from '../../lib/api/decode';
import { localManifest, waitingDeployment, waitingPolicy } from './flush';
import { scaleScenario } from './scale-scenario';

/**
 * The benchmarks write their fleets through the API, which validates every object: a rule added to the
 * API must not leave a benchmark refused at its first write, unnoticed until someone runs it.
 */
describe('the objects the benchmarks write are valid API objects', () => {
  const accepted = (objects: readonly unknown[]) => objects.map((object) => decodeObject(object).kind);

  it('the scale scenario (scale, console, what-if, cluster-change, store-calls)', () => {
    const scenario = scaleScenario({ clusters: 3, workloads: 20, preemptors: 2, runningPriorities: [0, 1], preemptorPriority: 90 });
    const objects = scenario.steps.flatMap((step) => ('apply' in step ? step.apply : []));
    expect(new Set(accepted(objects))).toEqual(new Set(['Cluster', 'PriorityClass', 'Deployment', 'PropagationPolicy']));
  });

  it('the unschedulable flush, in-process and on the local AWS endpoint', () => {
    expect(accepted([waitingDeployment(0), waitingPolicy(0)])).toEqual(['Deployment', 'PropagationPolicy']);
    expect(accepted([localManifest('cluster', 'member-1'), localManifest('policy', 'all'), localManifest('deployment', 'web-1')])).toEqual(['Cluster', 'PropagationPolicy', 'Deployment']);
  });
});

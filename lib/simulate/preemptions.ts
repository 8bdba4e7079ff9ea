import { PREEMPTOR_PRIORITY_ANNOTATION, VICTIM_PRIORITY_ANNOTATION, type KubeEvent } from '../api/event';
import { bindingKey, type BindingTally } from './binding-tally';

export interface BindingName {
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}

/** One placement that preempted: the binding placed, where, and the bindings it evicted to make room. */
export interface Preemption {
  /** The step (counted from 1) and the virtual time of the placement. */
  readonly step: number;
  readonly time: string;
  readonly preemptor: BindingName;
  /** The preemptor's priority the decision was made on. */
  readonly priority: number;
  /** Where the placement put the preemptor, as committed. */
  readonly clusters: ReadonlyArray<{ readonly name: string; readonly replicas: number }>;
  readonly victims: Array<BindingName & { readonly priority: number }>;
}

function nameOf(object: { kind: string; namespace?: string; name: string }): BindingName {
  return { kind: object.kind, ...(object.namespace ? { namespace: object.namespace } : {}), name: object.name };
}

/**
 * The preemptions of a simulation, one per placement that preempted, from its Preempted events as they
 * are recorded: a placement's events come together, after its commit (commit-plan.ts), one per victim
 * naming the preemptor as the related object.
 */
export class PreemptionLog {
  readonly preemptions: Preemption[] = [];

  constructor(private readonly tally: BindingTally) {}

  record(event: KubeEvent, step: number, time: string): void {
    if (event.reason !== 'Preempted') return;
    const annotations = event.metadata.annotations ?? {};
    const preemptor = nameOf(event.related ?? { kind: 'ResourceBinding', name: '<unknown>' });
    const victim = { ...nameOf(event.involvedObject), priority: Number(annotations[VICTIM_PRIORITY_ANNOTATION] ?? 0) };
    const last = this.preemptions.at(-1);
    if (last && last.step === step && last.time === time && bindingKey(last.preemptor) === bindingKey(preemptor)) {
      last.victims.push(victim);
      return;
    }
    this.preemptions.push({
      step,
      time,
      preemptor,
      priority: Number(annotations[PREEMPTOR_PRIORITY_ANNOTATION] ?? 0),
      clusters: this.tally.get(bindingKey(preemptor))?.spec.clusters ?? [],
      victims: [victim],
    });
  }
}

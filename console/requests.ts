import { formatQuantity, parseQuantity, resourceUnit } from '../lib/quantity';
import { resourceOrder } from './fill';
import type { Binding } from './model';

export interface ResourceAmount {
  readonly resource: string;
  readonly quantity: string;
}

export interface Requests {
  /** Per replica, as the binding asks (its replicaRequirements); one pod each besides. */
  readonly perReplica: readonly ResourceAmount[];
  readonly replicas: number;
  /** Per replica × replicas. */
  readonly total: readonly ResourceAmount[];
}

/** What the binding asks of the clusters it is placed on. */
export function requestsOf(binding: Binding): Requests {
  const request = binding.spec.replicaRequirements?.resourceRequest ?? {};
  const replicas = binding.spec.replicas ?? 0;
  const amounts = Object.keys(request)
    .sort(resourceOrder)
    .map((resource) => ({ resource, amount: parseQuantity(request[resource]!, resourceUnit(resource)) }));
  return {
    perReplica: amounts.map(({ resource, amount }) => ({ resource, quantity: formatQuantity(amount, resource) })),
    replicas,
    total: amounts.map(({ resource, amount }) => ({ resource, quantity: formatQuantity(amount * replicas, resource) })),
  };
}

/** "cpu 5, memory 1Gi". */
export function amountsText(amounts: readonly ResourceAmount[]): string {
  return amounts.map((amount) => `${amount.resource} ${amount.quantity}`).join(', ');
}

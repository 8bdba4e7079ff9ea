/** Builders for the policy tests: objects go through decodeObject, so they are what the store would hold. */
import { decodeObject } from '../../../lib/api/decode';
import type { PriorityClass } from '../../../lib/api/priority-class';
import type { AnyPropagationPolicy, ClusterPropagationPolicy, PropagationPolicy } from '../../../lib/api/propagation-policy';
import type { WorkloadTemplate } from '../../../lib/api/resource-template';

export interface TemplateOptions {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly namespace?: string | null;
  readonly labels?: Record<string, string>;
  readonly podLabels?: Record<string, string>;
  readonly replicas?: number;
  readonly priorityClassName?: string;
  readonly containers?: readonly Record<string, unknown>[];
  readonly initContainers?: readonly Record<string, unknown>[];
}

export function template(name: string, options: TemplateOptions = {}): WorkloadTemplate {
  const namespace = options.namespace === undefined ? 'default' : options.namespace;
  return decodeObject({
    apiVersion: options.apiVersion ?? 'apps/v1',
    kind: options.kind ?? 'Deployment',
    metadata: { name, ...(namespace === null ? {} : { namespace }), ...(options.labels ? { labels: options.labels } : {}) },
    spec: {
      ...(options.replicas === undefined ? {} : { replicas: options.replicas }),
      // apps/v1 requires the pods' selector; other kinds (a Job, a custom workload) do without.
      ...((options.apiVersion ?? 'apps/v1') === 'apps/v1' ? { selector: { matchLabels: { app: name } } } : {}),
      template: {
        metadata: { labels: { app: name, ...options.podLabels } },
        spec: {
          containers: options.containers ?? [{ name: 'main', resources: { requests: { cpu: '500m', memory: '1Gi' } } }],
          ...(options.initContainers ? { initContainers: options.initContainers } : {}),
          ...(options.priorityClassName ? { priorityClassName: options.priorityClassName } : {}),
        },
      },
    },
  }) as WorkloadTemplate;
}

export const DEPLOYMENTS = { apiVersion: 'apps/v1', kind: 'Deployment' } as const;

export function pp(name: string, spec: Record<string, unknown>, namespace = 'default'): PropagationPolicy {
  return decodeObject({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name, namespace },
    spec: { resourceSelectors: [DEPLOYMENTS], ...spec },
  }) as PropagationPolicy;
}

export function cpp(name: string, spec: Record<string, unknown>): ClusterPropagationPolicy {
  return decodeObject({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterPropagationPolicy',
    metadata: { name },
    spec: { resourceSelectors: [DEPLOYMENTS], ...spec },
  }) as ClusterPropagationPolicy;
}

export function priorityClass(name: string, value: number, fields: Record<string, unknown> = {}): PriorityClass {
  return decodeObject({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...fields }) as PriorityClass;
}

export function names(policies: readonly AnyPropagationPolicy[]): string[] {
  return policies.map((policy) => policy.metadata.name);
}

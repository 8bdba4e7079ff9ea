import { BUILT_IN_KINDS } from '../../../lib/api/kinds';
import { apiGroupOf } from '../../../lib/api/resource-template';
import { Authorizer } from '../../../lib/auth/authorizer';
import { storedPriorityClasses } from '../../../lib/auth/priority-class-lookup';
import type { TenancySettings } from '../../../lib/auth/tenancy-settings';
import type { ApiDependencies, ApiResponse } from '../../../lib/http/api-types';
import { handleApiRequest } from '../../../lib/http/handle-request';
import { MemorySystem } from '../../../lib/runtime/memory-system';

export interface RequestOptions {
  readonly body?: unknown;
  /** A body sent as is (YAML, junk); otherwise `body` is sent as JSON. */
  readonly text?: string;
  readonly contentType?: string;
  readonly query?: Record<string, string>;
  /** The caller, when the Api was made with tenancy; without one the request carries no identity. */
  readonly identity?: string;
}

export interface Reply {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: any;
}

export function parseReply(response: ApiResponse): Reply {
  return { statusCode: response.statusCode, headers: response.headers, body: JSON.parse(response.body) };
}

export class Api {
  readonly system = new MemorySystem();
  readonly internalErrors: unknown[] = [];

  /** Without tenancy, every caller may write everything (the API's behaviour before tenancy). */
  constructor(private readonly tenancy?: TenancySettings) {}

  private accessFor(identity: string | undefined): Pick<ApiDependencies, 'access'> {
    if (!this.tenancy) return {};
    return { access: { identity, authorizer: new Authorizer(this.tenancy, storedPriorityClasses(this.system.store)) } };
  }

  async send(method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
    const text = options.text ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    // As kubectl does, a server-side apply names its field manager (the API requires one).
    const apply = options.contentType === 'application/apply-patch+yaml' ? { fieldManager: 'tester' } : {};
    const response = await handleApiRequest(
      {
        method,
        path,
        query: { ...apply, ...options.query },
        headers: text === undefined ? {} : { 'content-type': options.contentType ?? 'application/json' },
        body: text,
      },
      {
        objects: this.system.objects,
        store: this.system.store,
        events: this.system.events,
        onInternalError: (e) => this.internalErrors.push(e),
        ...this.accessFor(options.identity),
      },
    );
    return parseReply(response);
  }

  get(path: string, query?: Record<string, string>): Promise<Reply> {
    return this.send('GET', path, query ? { query } : {});
  }

  /** Creates through the write path directly, for arranging a test. */
  async seed(...objects: unknown[]): Promise<void> {
    for (const object of objects) await this.system.objects.apply(object);
    await this.system.runUntilIdle();
  }

  /** Every stored object of every kind (ClusterAllocations included) and every event: what "nothing written" compares. */
  async snapshot(): Promise<unknown> {
    const kinds = BUILT_IN_KINDS;
    const objects = await Promise.all(kinds.map((k) => this.system.store.list(apiGroupOf(k.apiVersion), k.kind)));
    return { objects, events: await this.system.events.list() };
  }
}

export const priorityClass = (name = 'high', value = 1000) => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name },
  value,
  description: 'important work',
});

export const cluster = (name = 'member1', cpu = '8') => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name },
  status: { resourceSummary: { allocatable: { cpu, memory: '32Gi', pods: '110' } } },
});

export const propagationPolicy = (name = 'all-jobs', namespace = 'default', extra: Record<string, unknown> = {}) => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: { name, namespace },
  spec: { resourceSelectors: [{ apiVersion: 'batch/v1', kind: 'Job' }], ...extra },
});

export const clusterPropagationPolicy = (name = 'all-deployments') => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'ClusterPropagationPolicy',
  metadata: { name },
  spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }] },
});

export const workload = (apiVersion: string, kind: string, name = 'web', namespace = 'default', labels: Record<string, string> = {}) => ({
  apiVersion,
  kind,
  metadata: { name, namespace, labels },
  spec: {
    ...(kind === 'Job' ? {} : { replicas: 1, selector: { matchLabels: { app: name } } }),
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu: '1' } } }] } },
  },
});

export const job = (name = 'report', namespace = 'default') => workload('batch/v1', 'Job', name, namespace);

import type { Server } from 'node:http';
import type { ScenarioStep } from '../../lib/simulate/scenario';
import { summarizeBinding, type SimulatedBinding } from '../../lib/simulate/run-scenario';
import type { ResourceBinding } from '../../lib/api/resource-binding';
import { startHttpGateway } from '../../functions/local/http-gateway';
import { loadLocalFunctions, type HandlerWrappers, type LocalFunctions } from '../../functions/local/local-functions';
import type { QueueRedelivery } from '../../functions/adapters/definitions';
import type { OutrankSettingsWithTenancy } from '../../functions/environment';
import { collectionPath } from '../support/api-paths';
import { provisionTestAws, type TestAws } from '../support/aws';
import { DynamoDbObjectStore } from '../../functions/adapters/dynamodb-object-store';

interface Locator {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}

function locatorPath(locator: Omit<Locator, 'name'>): string {
  return collectionPath(locator.apiVersion, locator.kind, locator.namespace);
}

/** The deployed pipeline in this process: real queues and tables on the local endpoint, handlers invoked as Lambda would be. */
export class Pipeline {
  private constructor(
    readonly aws: TestAws,
    readonly functions: LocalFunctions,
    private readonly server: Server,
    readonly url: string,
    readonly errors: unknown[],
  ) {
    this.store = new DynamoDbObjectStore(aws.clients.documents, aws.resources.objectsTable);
  }

  /** The objects table, read directly as the functions read it. */
  readonly store: DynamoDbObjectStore;

  /** `provision` makes the tables and queues: by default on the tests' shared endpoint. */
  static async start(
    options: { wrap?: HandlerWrappers; redelivery?: QueueRedelivery; settings?: OutrankSettingsWithTenancy; provision?: (redelivery?: QueueRedelivery) => Promise<TestAws> } = {},
  ): Promise<Pipeline> {
    const aws = await (options.provision ?? provisionTestAws)(options.redelivery);
    const errors: unknown[] = [];
    const functions = await loadLocalFunctions(aws.clients, aws.resources, options.settings, (error) => errors.push(error), { wrap: options.wrap });
    const server = await startHttpGateway(functions.api, 0);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return new Pipeline(aws, functions, server, `http://localhost:${port}`, errors);
  }


  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  async request(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; body: any }> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: { 'content-type': contentType },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() };
  }

  /** Applies one scenario step through the API; returns the Status of each refused object. */
  async step(step: ScenarioStep): Promise<Array<{ status: number; message: string }>> {
    const refused: Array<{ status: number; message: string }> = [];
    const note = (result: { status: number; body: any }) => {
      if (result.status >= 400) refused.push({ status: result.status, message: result.body.message });
    };
    if ('apply' in step) {
      for (const raw of step.apply as Array<Locator & { metadata: { name: string; namespace?: string } }>) {
        const path = locatorPath({ ...raw, namespace: raw.metadata.namespace });
        const existing = await this.request('GET', `${path}/${raw.metadata.name}`);
        note(existing.status === 404 ? await this.request('POST', path, raw) : await this.request('PUT', `${path}/${raw.metadata.name}`, raw));
      }
    } else if ('patch' in step) {
      for (const { patch, ...locator } of step.patch) {
        note(await this.request('PATCH', `${locatorPath(locator)}/${locator.name}`, patch, 'application/merge-patch+json'));
      }
    } else if ('delete' in step) {
      for (const locator of step.delete) note(await this.request('DELETE', `${locatorPath(locator)}/${locator.name}`));
    }
    return refused;
  }

  /** Polls every queue-triggered function until two rounds in a row find no message. */
  async settle(): Promise<void> {
    let quiet = 0;
    while (quiet < 2) {
      let handled = 0;
      for (const poller of this.functions.pollers) handled += await poller.pollOnce(0);
      quiet = handled === 0 ? quiet + 1 : 0;
    }
  }

  async bindings(): Promise<SimulatedBinding[]> {
    const namespaced = await this.request('GET', '/apis/work.karmada.io/v1alpha2/resourcebindings');
    const clusterScoped = await this.request('GET', '/apis/work.karmada.io/v1alpha2/clusterresourcebindings');
    return [...namespaced.body.items, ...clusterScoped.body.items].map((binding: ResourceBinding) => summarizeBinding(binding));
  }
}

/** What must agree between the deployed pipeline and the simulator: placement and scheduling state. */
export function comparable(bindings: readonly SimulatedBinding[]) {
  return bindings.map((b) => ({
    kind: b.kind,
    namespace: b.namespace,
    name: b.name,
    policy: b.policy,
    priority: b.priority,
    preemptionPolicy: b.preemptionPolicy,
    preemptibility: b.preemptibility,
    suspended: b.suspended,
    clusters: b.clusters,
    schedulerObservingAffinityName: b.schedulerObservingAffinityName,
    conditions: b.conditions.map((c) => ({ type: c.type, status: c.status, reason: c.reason })),
  }));
}

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand, GetQueueUrlCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { awsClients } from '../../functions/adapters/aws-context';
import { allQueues, resourceDefinitions } from '../../functions/adapters/definitions';
import { useEmulatorCredentials } from '../../functions/local/aws-endpoint';
import { startHttpGateway } from '../../functions/local/http-gateway';
import { loadLocalFunctions, type LocalFunctions } from '../../functions/local/local-functions';
import type { ResourceBinding } from '../../lib/api/resource-binding';
import { deployToEndpoint, type EndpointDeployment } from '../../cdk/deploy-to-endpoint';

const endpointUrl = inject('awsEndpointUrl');
useEmulatorCredentials();
process.env.AWS_ENDPOINT_URL = endpointUrl;

// Unique names: the endpoint is shared with the other test files.
const id = randomBytes(4).toString('hex');
const prefix = `d${id}`;
const clients = awsClients();
let outdir: string;
let deployment: EndpointDeployment;

beforeAll(async () => {
  outdir = await mkdtemp(join(tmpdir(), 'outrank-cdk-test-'));
  deployment = await deployToEndpoint({ endpointUrl, outdir, stackName: `OutrankTest${id}`, prefix });
}, 120_000);

afterAll(async () => {
  await rm(outdir, { recursive: true, force: true });
});

describe('the stack deployed to the local endpoint (npm run deploy:local)', () => {
  const definitions = () => resourceDefinitions(prefix, deployment.settings.bands);

  it('has the tables and FIFO queues of the definitions, each queue redriving to its dead-letter queue', async () => {
    expect(deployment.resources.objectsTable).toBe(definitions().objectsTable.name);
    expect(deployment.resources.eventsTable).toBe(definitions().eventsTable.name);
    for (const table of [definitions().objectsTable, definitions().eventsTable]) {
      const { Table } = await clients.dynamodb.send(new DescribeTableCommand({ TableName: table.name }));
      expect(Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
    }
    const attributes = async (queueName: string) => {
      const { QueueUrl } = await clients.sqs.send(new GetQueueUrlCommand({ QueueName: queueName }));
      return (await clients.sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['All'] }))).Attributes ?? {};
    };
    for (const queue of allQueues(definitions())) {
      const [main, deadLetter] = await Promise.all([attributes(queue.name), attributes(queue.deadLetterName)]);
      expect([main.FifoQueue, deadLetter.FifoQueue]).toEqual(['true', 'true']);
      expect(JSON.parse(main.RedrivePolicy ?? '{}')).toMatchObject({ deadLetterTargetArn: deadLetter.QueueArn, maxReceiveCount: queue.maxReceiveCount });
    }
  });

  describe('with the functions running in this process against it', () => {
    const errors: unknown[] = [];
    let functions: LocalFunctions;
    let server: Server;
    let apiUrl: string;

    beforeAll(async () => {
      functions = await loadLocalFunctions(clients, deployment.resources, deployment.settings, (error) => errors.push(error));
      server = await startHttpGateway(functions.api, 0, undefined, undefined, functions.watch);
      const address = server.address();
      apiUrl = `http://localhost:${typeof address === 'object' && address ? address.port : 0}`;
    });

    afterAll(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${apiUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(response.status, await response.clone().text()).toBe(201);
    };

    /** Polls every queue-driven function until two rounds in a row find nothing, as event source mappings would. */
    const settle = async () => {
      for (let quiet = 0; quiet < 2; ) {
        let handled = 0;
        for (const poller of functions.pollers) handled += await poller.pollOnce(0);
        quiet = handled === 0 ? quiet + 1 : 0;
      }
    };

    it('schedules a workload through the deployed queues and tables', async () => {
      await post('/apis/cluster.karmada.io/v1alpha1/clusters', {
        apiVersion: 'cluster.karmada.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name: 'member1' },
        status: { resourceSummary: { allocatable: { cpu: '4', memory: '16Gi', pods: '110' } } },
      });
      await post('/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies', {
        apiVersion: 'policy.karmada.io/v1alpha1',
        kind: 'PropagationPolicy',
        metadata: { name: 'web', namespace: 'default' },
        spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], placement: { clusterAffinity: { clusterNames: ['member1'] } } },
      });
      await post('/apis/apps/v1/namespaces/default/deployments', {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'default' },
        spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu: '1' } } }] } } },
      });
      await settle();

      const response = await fetch(`${apiUrl}/apis/work.karmada.io/v1alpha2/namespaces/default/resourcebindings`);
      const { items } = (await response.json()) as { items: ResourceBinding[] };
      expect(errors).toEqual([]);
      expect(items).toHaveLength(1);
      expect(items[0]!.spec.clusters?.map((cluster) => cluster.name)).toEqual(['member1']);
      expect(items[0]!.status?.conditions?.find((condition) => condition.type === 'Scheduled')?.status).toBe('True');
    });

    it('reports every deployed queue in the queue status, the stream failures queue found from the stack\'s outputs', async () => {
      const response = await fetch(`${apiUrl}/outrank/v1/queues`);
      const { items } = (await response.json()) as { items: Array<{ name: string; deadLettered: number }> };
      expect(items.map((item) => item.name)).toEqual([
        'policy-change',
        'binding-enqueue',
        'schedule-tick',
        ...deployment.settings.bands.map((band) => `schedule-${band.name}`),
        'policy-change-stream-failures',
      ]);
      expect(items.every((item) => item.deadLettered === 0)).toBe(true);
    });

    it('streams a watch of the deployed objects table through the watch function (its URL the emulator cannot make)', async () => {
      const response = await fetch(`${apiUrl}/apis/work.karmada.io/v1alpha2/namespaces/default/resourcebindings?watch=1&timeoutSeconds=1`);
      expect(response.status).toBe(200);
      const events = (await response.text()).trim().split('\n').map((line) => JSON.parse(line) as { type: string; object: ResourceBinding });
      expect(events.map((event) => [event.type, event.object.metadata.name])).toEqual([['ADDED', 'web-deployment']]);
    });
  });
});

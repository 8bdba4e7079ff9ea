import { createServer, request, Agent, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AwsResources } from '../../../functions/adapters/aws-context';

export interface SerializingProxy {
  readonly url: string;
  close(): Promise<void>;
}

async function body(message: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * An HTTP proxy to the local AWS endpoint that forwards one request at a time. moto answers on
 * several threads, and its TransactWriteItems is not isolated from them: it checks and writes item by
 * item, and when a condition fails it puts back copies of the tables taken when it began, undoing
 * whatever other requests wrote meanwhile. DynamoDB's transactions are serializable; one request at
 * a time gives the emulator that isolation, while the requests of the processes under test still
 * interleave in every order their timing produces.
 */
export async function startSerializingProxy(target: string): Promise<SerializingProxy> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let turn: Promise<void> = Promise.resolve();
  const forward = (incoming: IncomingMessage, payload: Buffer) =>
    new Promise<{ status: number; headers: IncomingMessage['headers']; payload: Buffer }>((resolve, reject) => {
      const outgoing = request(new URL(incoming.url ?? '/', target), { method: incoming.method, headers: incoming.headers, agent }, (response) => {
        body(response).then((answer) => resolve({ status: response.statusCode ?? 502, headers: response.headers, payload: answer }), reject);
      });
      outgoing.on('error', reject);
      outgoing.end(payload);
    });
  const server = createServer((incoming, response) => {
    void body(incoming).then((payload) => {
      const answered = turn.then(() => forward(incoming, payload));
      turn = answered.then(
        () => undefined,
        () => undefined,
      );
      answered.then(
        ({ status, headers, payload: answer }) => response.writeHead(status, headers).end(answer),
        (error: Error) => response.writeHead(502).end(error.message),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

/**
 * The resources with their queue URLs on the proxy: the SQS client sends each request to the host of
 * the queue URL it names, not to AWS_ENDPOINT_URL.
 */
export function throughProxy(resources: AwsResources, proxy: SerializingProxy): AwsResources {
  const moved = (url: string) => `${proxy.url}${new URL(url).pathname}`;
  return {
    ...resources,
    policyChangeQueueUrl: moved(resources.policyChangeQueueUrl),
    bindingEnqueueQueueUrl: moved(resources.bindingEnqueueQueueUrl),
    scheduleTickQueueUrl: moved(resources.scheduleTickQueueUrl),
    bandQueueUrls: Object.fromEntries(Object.entries(resources.bandQueueUrls).map(([band, url]) => [band, moved(url)])),
  };
}

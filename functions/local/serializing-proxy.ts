import { createServer, request, Agent, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BACKGROUND_HEADER } from './background-requests';
import { OneAtATime } from './one-at-a-time';

export interface SerializingProxy {
  readonly url: string;
  close(): Promise<void>;
}

async function body(message: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** DynamoDB's JSON protocol names the operation in this header ("DynamoDB_20120810.TransactWriteItems"). */
function isDynamoDbRequest(incoming: IncomingMessage): boolean {
  return String(incoming.headers['x-amz-target'] ?? '').startsWith('DynamoDB_');
}

/**
 * An HTTP proxy to the local AWS endpoint that forwards DynamoDB requests one at a time. moto answers
 * on several threads, and its TransactWriteItems is not isolated from them: it checks and writes item
 * by item, and when a condition fails it puts back copies of the tables taken when it began, undoing
 * whatever other requests wrote meanwhile (a committed placement vanishes). DynamoDB's transactions
 * are serializable; one request at a time gives the emulator that isolation, while the requests of
 * concurrent callers still interleave in every order their timing produces. Requests marked as
 * background (the watches' reads: background-requests.ts) go only when no other DynamoDB request
 * waits, so that however many watches are open the scheduling path waits for at most one of their
 * reads. Other services' requests (SQS long polls among them) pass straight through.
 */
export async function startSerializingProxy(target: string): Promise<SerializingProxy> {
  const serialAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const agent = new Agent({ keepAlive: true });
  const dynamodb = new OneAtATime();
  const forward = (incoming: IncomingMessage, payload: Buffer, via: Agent) =>
    new Promise<{ status: number; headers: IncomingMessage['headers']; payload: Buffer }>((resolve, reject) => {
      const outgoing = request(new URL(incoming.url ?? '/', target), { method: incoming.method, headers: incoming.headers, agent: via }, (response) => {
        body(response).then((answer) => resolve({ status: response.statusCode ?? 502, headers: response.headers, payload: answer }), reject);
      });
      outgoing.on('error', reject);
      outgoing.end(payload);
    });
  const server = createServer((incoming, response) => {
    void body(incoming).then((payload) => {
      let answered: ReturnType<typeof forward>;
      if (isDynamoDbRequest(incoming)) {
        answered = dynamodb.run(() => forward(incoming, payload, serialAgent), incoming.headers[BACKGROUND_HEADER] !== undefined);
      } else {
        answered = forward(incoming, payload, agent);
      }
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
      serialAgent.destroy();
      agent.destroy();
    },
  };
}

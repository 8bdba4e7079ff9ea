import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { announceClient } from '../adapters/aws-context';

/**
 * The request header by which the local runtime's clients mark DynamoDB requests that may wait: the
 * watches' reads. The serializing proxy (serializing-proxy.ts) forwards them only when no other
 * DynamoDB request waits, so that open watches never hold up the scheduling path.
 */
export const BACKGROUND_HEADER = 'x-outrank-background';

/** An HTTP request as SDK middleware at the build step sees it, as far as a header goes. */
interface WithHeaders {
  readonly request?: { headers?: Record<string, string> };
}

/** A DynamoDB client whose every request carries the background mark; shown to the clients hooks as any other. */
export function backgroundDynamoDbClient(): DynamoDBClient {
  const client = new DynamoDBClient({});
  client.middlewareStack.add(
    (next) => (args) => {
      const headers = (args as WithHeaders).request?.headers;
      if (headers) headers[BACKGROUND_HEADER] = '1';
      return next(args);
    },
    { step: 'build', name: 'outrankBackgroundMark' },
  );
  return announceClient(client, 'DynamoDB');
}

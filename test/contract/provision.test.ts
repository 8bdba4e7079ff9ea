import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { randomBytes } from 'node:crypto';
import { inject, describe, expect, it } from 'vitest';
import { awsClients } from '../../functions/adapters/aws-context';
import { EVENTS_BY_REASON_INDEX, EVENTS_BY_WRITE_TIME_INDEX, resourceDefinitions } from '../../functions/adapters/definitions';
import { provision } from '../../functions/adapters/provision';
import { useEmulatorCredentials } from '../../functions/local/aws-endpoint';
import { DEFAULT_BANDS } from '../../lib/config';

async function indexesOf(table: string): Promise<string[]> {
  const { Table } = await awsClients().dynamodb.send(new DescribeTableCommand({ TableName: table }));
  return (Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName!);
}

describe('provisioning the tables on the local endpoint (npm start, deploy-free runs)', () => {
  it('makes the events table with its indexes (Preempted events, the feed by write time), and adds them to a table made before it', async () => {
    useEmulatorCredentials();
    process.env.AWS_ENDPOINT_URL = inject('awsEndpointUrl');
    const { dynamodb, sqs } = awsClients();
    const definitions = resourceDefinitions(`t${randomBytes(4).toString('hex')}`, DEFAULT_BANDS);
    const withoutIndex = { ...definitions, eventsTable: { ...definitions.eventsTable, globalIndexes: [] } };
    await provision(dynamodb, sqs, withoutIndex);
    expect(await indexesOf(definitions.eventsTable.name)).toEqual([]);
    await provision(dynamodb, sqs, definitions);
    expect((await indexesOf(definitions.eventsTable.name)).sort()).toEqual([EVENTS_BY_REASON_INDEX.name, EVENTS_BY_WRITE_TIME_INDEX.name].sort());
    // Provisioning what exists changes nothing.
    await provision(dynamodb, sqs, definitions);
    expect((await indexesOf(definitions.eventsTable.name)).sort()).toEqual([EVENTS_BY_REASON_INDEX.name, EVENTS_BY_WRITE_TIME_INDEX.name].sort());
  });
});

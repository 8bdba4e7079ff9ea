import { SqsMessageQueue } from '../../functions/adapters/sqs-message-queue';
import { DynamoDbEventLog } from '../../functions/adapters/dynamodb-event-log';
import { DynamoDbObjectStore } from '../../functions/adapters/dynamodb-object-store';
import { systemClock } from '../../lib/ports/clock';
import { provisionTestAws } from '../support/aws';
import { eventLogContract } from './event-log.contract';
import { messageQueueContract } from './message-queue.contract';
import { objectStoreContract } from './object-store.contract';

objectStoreContract('DynamoDB', async () => {
  const aws = await provisionTestAws();
  return new DynamoDbObjectStore(aws.clients.documents, aws.resources.objectsTable);
});

messageQueueContract('SQS FIFO', async () => {
  const aws = await provisionTestAws();
  return {
    queue: new SqsMessageQueue(aws.clients.sqs, 'contract', aws.resources.policyChangeQueueUrl),
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
});

eventLogContract('DynamoDB', async () => {
  const aws = await provisionTestAws();
  return new DynamoDbEventLog(aws.clients.documents, aws.resources.eventsTable, systemClock);
});

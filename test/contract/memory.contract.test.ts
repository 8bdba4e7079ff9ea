import { ManualClock } from '../../lib/memory/manual-clock';
import { MemoryEventLog } from '../../lib/memory/memory-event-log';
import { MemoryMessageQueue } from '../../lib/memory/memory-message-queue';
import { MemoryObjectStore } from '../../lib/memory/memory-store';
import { eventLogContract } from './event-log.contract';
import { messageQueueContract } from './message-queue.contract';
import { objectStoreContract } from './object-store.contract';

objectStoreContract('in-memory', async () => new MemoryObjectStore());

messageQueueContract('in-memory', async () => {
  const clock = new ManualClock();
  return { queue: new MemoryMessageQueue('contract', clock), wait: async (ms) => clock.advance(ms) };
});

eventLogContract('in-memory', async () => new MemoryEventLog(new ManualClock()));

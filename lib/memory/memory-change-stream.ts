import { isAnnouncedToPolicyChange, objectChangeNotice, type ObjectChange } from '../controllers/messages';
import type { MessageQueue } from '../ports/message-queue';
import type { MemoryObjectStore } from './memory-store';

/**
 * The in-memory counterpart of the objects table's stream and the event source mapping that hands it
 * to policy-change: every committed write of a policy, template or cluster is queued for policy-change
 * as it commits, whoever wrote it, so no write goes unannounced.
 */
export function streamChangesTo(store: MemoryObjectStore, queue: MessageQueue<ObjectChange>): void {
  store.onCommit((changes) => {
    const notices = changes
      .filter((change) => isAnnouncedToPolicyChange(change.ref))
      .map((change) => objectChangeNotice(change.ref, change.revision, change.object ? 'written' : 'deleted'));
    // The in-memory queue takes the messages before its send returns: nothing can come between.
    if (notices.length > 0) void queue.send(notices);
  });
}

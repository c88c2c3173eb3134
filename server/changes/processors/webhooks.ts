// The webhooks processor (CONTRACT §21): before the commit the outbox rows are written on the change's
// transaction (services/webhooks/outbox.ts); after it the sender is woken (services/webhooks/sender.ts).
import { writeOutbox } from '../../services/webhooks/outbox';
import { wakeSenders } from '../../services/webhooks/sender';
import type { ChangeSet } from '../change-set';

export const writeWebhookOutbox = (changes: ChangeSet): Promise<void> => writeOutbox(changes);

/** After the commit: a change that may have queued deliveries wakes this node's sender. */
export function wakeWebhookSender(changes: ChangeSet): void {
  if (changes.webhooksQueued) wakeSenders();
}

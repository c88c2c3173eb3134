// The webhooks processor (CONTRACT §21): before the commit the outbox rows are written on the change's
// transaction (services/webhooks/outbox.ts); after it the sender is woken (services/webhooks/sender.ts).
import { wakeSenders } from '../../services/webhooks/sender';
import type { ChangeSet } from '../change-set';

/** Before the commit, on its transaction. */
export { writeOutbox as writeWebhookOutbox } from '../../services/webhooks/outbox';

/** After the commit: a change that may have queued deliveries wakes this node's sender. */
export function wakeWebhookSender(changes: ChangeSet): void {
  if (changes.webhooksQueued.size) wakeSenders(changes.webhooksQueued);
}

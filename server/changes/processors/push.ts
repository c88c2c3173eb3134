// The Web Push processor (CONTRACT §16): the notifications a locked phone is also told of, sent after the
// commit, outside any transaction (network work never holds one; pushToUser never rejects).
import { pushToUser } from '../../services/push';
import type { ChangeSet } from '../change-set';

export function pushToPhones(changes: ChangeSet): void {
  for (const change of changes.people)
    if (change.kind === 'notification' && change.push) void pushToUser(change.userId, change.push);
}

// The socket processor: the one place that turns a change set into pushes (realtime/emit.ts; a lint rule
// keeps every other importer out but realtime/ and the server's bootstrap). What it pushes is read before
// the commit (on the transaction's connection), the push itself is synchronous after it: a transaction
// that throws pushes nothing. Order: sessions ended first (a session that ended hears nothing more), then
// the tasks, the figures and the yard, then people's changes as they were recorded.
import { loadTasksByIdsWith } from '../../presenters/tasks';
import { activeWebhooksColumn, keepActiveWebhooks } from '../../services/webhooks/outbox';
import * as emit from '../../realtime/emit';
import { driverLists, statsByAudience } from '../../services/dashboard';
import { loadVisits } from '../../services/gate';
import { loadTrailers } from '../../services/trailers';
import type { ChangeSet, PeopleChange, SessionsRevoked } from '../change-set';

// The coalesced figures (emit.figuresChanged) are computed from the dashboard's own sources.
emit.setFigureSources(statsByAudience, driverLists);

/** Before the commit: the created and updated tasks as they stand (the last read of the transaction). */
export async function readForSockets(changes: ChangeSet): Promise<void> {
  const ids = [...changes.tasks].filter(([, change]) => change.kind !== 'deleted').map(([id]) => id);
  // PostgreSQL: the outbox's list of active webhooks comes with this read (services/webhooks/outbox.ts),
  // which runs before the outbox is written (processors/index.ts beforeCommit).
  // The yard's processor reads the trailers it settles, beside this read (processors/yard.ts): not twice.
  const trailers = [...changes.trailers].filter(
    (key) => !changes.loadedTrailers.has(key) && !changes.yardTrailers.has(key),
  );
  // Three reads at once: on PostgreSQL they leave together (pipelined), one wait for the three answers.
  const [{ tasks, extra }, loadedTrailers, visits] = await Promise.all([
    loadTasksByIdsWith(ids, activeWebhooksColumn(changes)),
    loadTrailers(trailers),
    loadVisits([...changes.visits]),
  ]);
  for (const [id, task] of tasks) changes.loaded.set(id, task);
  if (extra !== undefined) keepActiveWebhooks(changes, extra);
  for (const [key, trailer] of loadedTrailers) changes.loadedTrailers.set(key, trailer);
  for (const [id, visit] of visits) changes.loadedVisits.set(id, visit);
}

/** After the commit (or at once, outside a transaction): every push the set calls for. */
export function pushSockets(changes: ChangeSet): void {
  changes.revoked.forEach(revoke);
  for (const [id, change] of changes.tasks) {
    if (change.kind === 'deleted') {
      emit.taskDeleted({ id, ...change.before! });
      continue;
    }
    const task = changes.loaded.get(id);
    if (!task) continue;
    changes.presented.set(id, task);
    if (change.kind === 'created') emit.taskCreated(task);
    else emit.taskUpdated(task, change.before);
  }
  if (changes.figures) emit.figuresChanged();
  emit.yardChanged([...changes.yardPlaces]);
  for (const trailer of changes.loadedTrailers.values()) emit.trailerChanged(trailer);
  for (const visit of changes.loadedVisits.values()) emit.gateChanged(visit);
  changes.people.forEach(pushPerson);
}

function revoke(revoked: SessionsRevoked): void {
  switch (revoked.scope) {
    case 'session':
      return emit.revokeSession(revoked.sid, revoked.reason);
    case 'user':
      return emit.revokeUser(revoked.userId, revoked.reason);
    case 'user-but':
      return emit.revokeUserExcept(revoked.userId, revoked.keptSid, revoked.reason);
    case 'all-but':
      return emit.revokeAllExcept(revoked.userId, revoked.reason);
  }
}

function pushPerson(change: PeopleChange): void {
  switch (change.kind) {
    case 'user':
      return emit.userChanged(change.user);
    case 'user-removed':
      return emit.userRemoved(change.userId);
    case 'users-pending':
      return emit.usersPending(change.count);
    case 'task-types':
      return emit.syncTypeRooms(change.userId, change.taskTypes);
    case 'pool-seen':
      return emit.driverTypesChanged(change.userId, change.gained, change.lostIds);
    case 'notification':
      return emit.notificationNew(change.userId, change.notification);
    case 'notifications-read':
      return emit.notificationsRead(change.userId, change.ids);
    case 'timeclock':
      return emit.timeclockChanged(change.userId, change.status);
    case 'presence-forgotten':
      return emit.presenceForgotten(change.userId);
    case 'handover-notes':
      return emit.handoverChanged(change.shift, change.date);
  }
}

// CONTRACT §21 "Delivery": the transactional outbox. Before a change commits (changes/processors/webhooks.ts,
// inside its transaction) every happening of its ChangeSet becomes one `webhook_deliveries` row per active
// webhook subscribed to its event: the row commits or rolls back with the change. Its body is the snapshot
// at commit (the tasks, trailers and visits as read at the end of the transaction, as the sockets push them).
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { TaskEventType, WebhookEvent } from '@shared/enums';
import type { GateVisit, Task, WebhookPayload } from '@shared/schemas';
import { plateKey } from '@shared/text';
import { databaseIdentity, db, appendRows, isPostgres } from '../../db';
import { webhookDeliveries, webhooks } from '../../db/tables';
import { loadTasksByIds } from '../../presenters/tasks';
import type { ActiveWebhook, ChangeSet, Happening, TrailerHappening } from '../../changes/change-set';

/** The one map from what happened to the event other systems hear (CONTRACT §21 "Events"). */
const TASK_EVENT: Record<TaskEventType, WebhookEvent> = {
  created: 'task.created',
  updated: 'task.updated',
  status_changed: 'task.updated',
  assigned: 'task.assigned',
  returned: 'task.returned',
  completed: 'task.completed',
  reopened: 'task.reopened',
  deleted: 'task.deleted',
  held: 'task.held',
  released: 'task.released',
};
const TRAILER_EVENT: Record<TrailerHappening, WebhookEvent> = {
  entry: 'trailer.arrived',
  exit: 'trailer.departed',
  leave: 'trailer.departed',
  correction: 'trailer.moved',
  moved: 'trailer.moved',
  damaged: 'trailer.damaged',
  damage_cleared: 'trailer.damage_cleared',
};
const VISIT_EVENT = { opened: 'visit.opened', closed: 'visit.closed' } as const satisfies Record<
  string,
  WebhookEvent
>;

export function webhookEventOf(h: Happening): WebhookEvent {
  if (h.on === 'task') return TASK_EVENT[h.type];
  if (h.on === 'trailer') return TRAILER_EVENT[h.type];
  return VISIT_EVENT[h.type];
}

// The active webhooks. SQLite has one writing process (this one): the list is kept until this process
// changes a webhook (webhooksChanged()), so a change pays no query for it. PostgreSQL: another node may
// have changed them, and any snapshot check would cost a query too, so the list is read on the change's
// transaction (one indexed read of a small table, only for a change that has something to tell), as a
// column of the sockets' read of its tasks when it has some (activeWebhooksColumn()), else on its own.
let cached: { database: object; hooks: ActiveWebhook[] } | undefined;

/** After a webhook is created, edited, deleted or deactivated (services/webhooks/). */
export function webhooksChanged(): void {
  cached = undefined;
  edits += 1;
}

let edits = 0;
/** How many times this process changed a webhook: a sender's batch stops when it moves (sender.ts). */
export const webhookEdits = (): number => edits;

/**
 * PostgreSQL, a change with something to tell: the active webhooks as a column of another read of its
 * transaction (JSON text), then given to keepActiveWebhooks(); undefined when there is no need.
 */
export const activeWebhooksColumn = (changes: ChangeSet): string | undefined =>
  isPostgres && changes.happened.length ? ACTIVE_WEBHOOKS_COLUMN : undefined;

const ACTIVE_WEBHOOKS_COLUMN = `(SELECT coalesce(json_agg(json_build_object('id', w.id, 'events', w.events::json)), '[]')::text
    FROM webhooks w WHERE w.active)`;

export function keepActiveWebhooks(changes: ChangeSet, column: unknown): void {
  changes.activeWebhooks = JSON.parse(column as string) as ActiveWebhook[];
}

async function activeWebhooks(changes: ChangeSet): Promise<ActiveWebhook[]> {
  if (changes.activeWebhooks) return changes.activeWebhooks;
  // Kept per database (a test's fresh one, a reopened file never sees another's list).
  if (cached?.database === databaseIdentity()) return cached.hooks;
  const hooks = await db
    .select({ id: webhooks.id, events: webhooks.events })
    .from(webhooks)
    .where(eq(webhooks.active, true));
  if (!isPostgres) cached = { database: databaseIdentity(), hooks };
  return hooks;
}

/** Writes the outbox rows of a change set, on its transaction (nothing when no webhook wants them). */
export async function writeOutbox(changes: ChangeSet): Promise<void> {
  if (!changes.happened.length) return;
  const hooks = await activeWebhooks(changes);
  if (!hooks.length) return;
  const wanted = changes.happened
    .map((happening) => ({ happening, type: webhookEventOf(happening) }))
    .filter(({ type }) => hooks.some((hook) => hook.events.includes(type)));
  if (!wanted.length) return;
  const deleted = await deletedTasks(changes, wanted);
  const occurredAt = changes.at.toISOString();
  const rows: (typeof webhookDeliveries.$inferInsert)[] = [];
  for (const { happening, type } of wanted) {
    const payload: WebhookPayload = {
      id: crypto.randomUUID(),
      type,
      occurred_at: occurredAt,
      data: dataOf(happening, changes, deleted),
    };
    const body = JSON.stringify(payload);
    for (const hook of hooks)
      if (hook.events.includes(type))
        rows.push({
          webhookId: hook.id,
          eventId: payload.id,
          type,
          subject: subjectOf(happening),
          payload: body,
          nextAttemptAt: changes.at,
          createdAt: changes.at,
        });
  }
  await appendRows(webhookDeliveries, rows);
  for (const row of rows) changes.webhooksQueued.add(row.webhookId);
}

/** The deleted tasks an event is about (the sockets read only the others): as they were last shown. */
async function deletedTasks(
  changes: ChangeSet,
  wanted: readonly { happening: Happening }[],
): Promise<Map<string, Task>> {
  const ids = wanted.flatMap(({ happening: h }) =>
    h.on === 'task' && !changes.loaded.has(h.taskId) ? [h.taskId] : [],
  );
  return loadTasksByIds([...new Set(ids)]);
}

/** What the order of deliveries is kept for (CONTRACT §21: per task or trailer). */
function subjectOf(h: Happening): string {
  if (h.on === 'task') return `task:${h.taskId}`;
  if (h.on === 'trailer') return `trailer:${h.trailerKey}`;
  return `visit:${h.visitId}`;
}

function dataOf(
  h: Happening,
  changes: ChangeSet,
  deleted: ReadonlyMap<string, Task>,
): Record<string, unknown> {
  if (h.on === 'task') return { task: changes.loaded.get(h.taskId) ?? deleted.get(h.taskId) ?? null };
  if (h.on === 'visit') return { visit: changes.loadedVisits.get(h.visitId) ?? null };
  const trailer = changes.loadedTrailers.get(h.trailerKey) ?? null;
  const standing = trailer?.location?.id ?? null;
  return {
    trailer,
    visit: visitOf(h.trailerKey, changes),
    from_location_id: h.from === undefined ? standing : h.from,
    to_location_id: h.to === undefined ? standing : h.to,
  };
}

/** The gate visit of this change that dropped or picked the trailer (an entry's, an exit's), if any. */
function visitOf(trailerKey: string, changes: ChangeSet): GateVisit | null {
  for (const visit of changes.loadedVisits.values())
    for (const id of [visit.dropped_trailer_id, visit.picked_trailer_id])
      if (id && plateKey(id) === trailerKey) return visit;
  return null;
}

// Notifications: stored per user and pushed to the owner's sockets only.
import crypto from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { NotificationType } from '@shared/enums';
import type { Notification } from '@shared/schemas';
import { ERR } from '@shared/labels';
import { db, prepared, tx } from '../db';
import { notifications, type NotificationRow } from '../db/tables';
import { now } from '../clock';
import { notFound } from '../http/errors';
import { record } from '../changes/commit';

// Every assignment writes one: built once (db/index.ts prepared()).
const insertNotification = prepared('insert_notification', (handle) =>
  handle
    .insert(notifications)
    .values({
      id: sql.placeholder('id'),
      userId: sql.placeholder('userId'),
      type: sql.placeholder('type'),
      title: sql.placeholder('title'),
      message: sql.placeholder('message'),
      taskId: sql.placeholder('taskId'),
      subjectUserId: sql.placeholder('subjectUserId'),
      playSound: sql.placeholder('playSound'),
      createdAt: sql.placeholder('createdAt'),
    })
    .returning(),
);
/** The notifications a locked phone is also told of, by Web Push (CONTRACT §16). */
const PUSHED = new Set<NotificationType>(['task_assigned', 'task_closed_by_staff']);

export const presentNotification = (n: NotificationRow): Notification => ({
  id: n.id,
  type: n.type,
  title: n.title,
  message: n.message,
  is_read: n.isRead,
  play_sound: n.playSound,
  task_id: n.taskId,
  created_at: n.createdAt.toISOString(),
});

type NotifyOptions = { taskId?: string | null; subjectUserId?: string; playSound?: boolean };

/** A new notification row for `userId`, written at the change's time. */
const rowFor = (
  userId: string,
  type: NotificationType,
  title: string,
  message: string,
  opts: NotifyOptions,
) => ({
  id: crypto.randomUUID(),
  userId,
  type,
  title,
  message,
  taskId: opts.taskId ?? null,
  subjectUserId: opts.subjectUserId ?? null,
  playSound: opts.playSound ?? false,
  createdAt: now(),
});

/**
 * Records a stored notification in the change's set: it is pushed after the commit (so nobody hears of a
 * change that was rolled back); a `task_assigned` or `task_closed_by_staff` also goes to the driver's phones
 * then by Web Push (changes/processors/push.ts).
 */
function recordNotification(row: NotificationRow): void {
  record((changes) =>
    changes.person({
      kind: 'notification',
      userId: row.userId,
      notification: presentNotification(row),
      push: PUSHED.has(row.type)
        ? {
            type: row.type as 'task_assigned' | 'task_closed_by_staff',
            task_id: row.taskId,
            title: row.title,
            body: row.message,
          }
        : undefined,
    }),
  );
}

/** Stores a notification inside the change's transaction; it is pushed after the commit. */
export async function notify(
  userId: string,
  type: NotificationType,
  title: string,
  message: string,
  opts: NotifyOptions = {},
): Promise<void> {
  const [inserted] = await insertNotification(rowFor(userId, type, title, message, opts));
  recordNotification(inserted!);
}

/** Rows a multi-row insert carries: well under both engines' bound-parameter limits (9 columns each). */
const NOTIFY_BATCH = 500;

/**
 * The same notification to many users (an escalation to every staff user, a notice to every admin): one
 * insert per NOTIFY_BATCH users instead of one statement each, in the change's transaction.
 */
export async function notifyEach(
  userIds: readonly string[],
  type: NotificationType,
  title: string,
  message: string,
  opts: NotifyOptions = {},
): Promise<void> {
  for (let i = 0; i < userIds.length; i += NOTIFY_BATCH) {
    const rows = userIds.slice(i, i + NOTIFY_BATCH).map((id) => rowFor(id, type, title, message, opts));
    for (const row of await db.insert(notifications).values(rows).returning()) recordNotification(row);
  }
}

/**
 * A pending account was decided on (approved, rejected or deleted): every admin's "Nuevo usuario
 * pendiente" notice about it is read, so no banner keeps asking for a decision already taken. Call
 * inside the deciding transaction; the admins' open screens are told after the commit.
 */
export async function settlePendingNotices(subjectUserId: string): Promise<void> {
  const settled = await db
    .update(notifications)
    .set({ isRead: true })
    .where(
      and(
        eq(notifications.type, 'user_pending'),
        eq(notifications.subjectUserId, subjectUserId),
        eq(notifications.isRead, false),
      ),
    )
    .returning({ id: notifications.id, userId: notifications.userId });
  const byOwner = new Map<string, string[]>();
  for (const n of settled) byOwner.set(n.userId, [...(byOwner.get(n.userId) ?? []), n.id]);
  if (byOwner.size)
    record((changes) =>
      byOwner.forEach((ids, owner) => changes.person({ kind: 'notifications-read', userId: owner, ids })),
    );
}

/** The user's notifications, newest first (the client shows the unread ones). */
export async function listNotifications(userId: string, limit = 50): Promise<Notification[]> {
  const rows = await db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt))
    .limit(limit);
  return rows.map(presentNotification);
}

/** Marks one of the user's notifications read; another user's is a 404 (CONTRACT §13). */
export async function markRead(userId: string, id: string): Promise<void> {
  const marked = await tx(() =>
    db
      .update(notifications)
      .set({ isRead: true })
      .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
      .returning({ id: notifications.id }),
  );
  if (marked.length === 0) throw notFound(ERR.notificationNotFound);
}

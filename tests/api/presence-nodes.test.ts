// Presence across nodes (CONTRACT §18, services/presence.ts), on both engines. This process is one node;
// another node is played by its rows (server_nodes, node_presence), as it would have written them. The
// real two-process tests are in tests/process/many-nodes.test.ts.
import crypto from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { nodePresence, presenceIntervals, serverNodes, users } from '../../server/db/tables';
import { isPostgres } from '../../server/db';
import { NODE_ID, NODE_TIMEOUT_MS, presence } from '../../server/services/presence';
import { advanceClock, db, makeUser, now, setupApp, tx } from '../helpers/context';

beforeEach(async () => {
  await setupApp();
});

const userRow = async (id: string) => (await db.select().from(users).where(eq(users.id, id)))[0]!;
const intervals = (id: string) => db.select().from(presenceIntervals).where(eq(presenceIntervals.userId, id));

/** Another node that holds `userIds`, with its heartbeat `ageMs` old; they are online as it left them. */
async function otherNode(userIds: string[], ageMs = 0): Promise<{ id: string; heartbeat: number }> {
  const id = crypto.randomUUID();
  const at = new Date(now().getTime() - ageMs);
  await tx(async () => {
    await db.insert(serverNodes).values({ id, startedAt: at, heartbeatAt: at });
    for (const userId of userIds) {
      await db.insert(nodePresence).values({ nodeId: id, userId, since: at });
      await db.update(users).set({ isOnline: true, lastActivityAt: at }).where(eq(users.id, userId));
      await db.insert(presenceIntervals).values({ userId, startedAt: at });
    }
  });
  return { id, heartbeat: at.getTime() };
}

describe('presence with another node', () => {
  it('a user held by another node stays online when this one lets them go; one interval in all', async () => {
    const driver = await makeUser('conductor');
    await otherNode([driver.user.id]);
    await presence.socketConnected(driver.user.id);
    await presence.socketDisconnected(driver.user.id);
    expect((await userRow(driver.user.id)).isOnline).toBe(true);
    const open = await intervals(driver.user.id);
    expect(open).toHaveLength(1);
    expect(open[0]!.endedAt).toBeNull();
    // This node's row went with its last socket; the other node's stays.
    const rows = await db.select().from(nodePresence).where(eq(nodePresence.userId, driver.user.id));
    expect(rows.map((r) => r.nodeId)).not.toContain(NODE_ID);
    expect(rows).toHaveLength(1);
  });

  it('a user this node holds alone goes offline when it lets them go', async () => {
    const driver = await makeUser('conductor');
    await presence.socketConnected(driver.user.id);
    expect((await userRow(driver.user.id)).isOnline).toBe(true);
    await presence.socketDisconnected(driver.user.id);
    expect((await userRow(driver.user.id)).isOnline).toBe(false);
    const [interval] = await intervals(driver.user.id);
    expect(interval!.endedAt).not.toBeNull();
  });

  it('a dead node’s users go offline at the next sweep, as of its last heartbeat; the node is removed', async () => {
    const driver = await makeUser('conductor');
    const alsoHere = await makeUser('conductor');
    const dead = await otherNode([driver.user.id, alsoHere.user.id], NODE_TIMEOUT_MS + 1_000);
    await presence.socketConnected(alsoHere.user.id);
    await presence.sweep();
    expect((await userRow(driver.user.id)).isOnline).toBe(false);
    const [ended] = await intervals(driver.user.id);
    expect(ended!.endedAt!.getTime()).toBe(dead.heartbeat);
    // Held here too: still online, its interval still open.
    expect((await userRow(alsoHere.user.id)).isOnline).toBe(true);
    expect((await intervals(alsoHere.user.id))[0]!.endedAt).toBeNull();
    expect(await db.select().from(serverNodes).where(eq(serverNodes.id, dead.id))).toEqual([]);
    await presence.socketDisconnected(alsoHere.user.id);
  });

  it('a live node is left alone by the sweep, until its heartbeat is older than the timeout', async () => {
    const driver = await makeUser('conductor');
    await otherNode([driver.user.id]);
    await presence.sweep();
    expect((await userRow(driver.user.id)).isOnline).toBe(true);
    // The clock moves on; this node heartbeats at its sweep, the other one does not.
    await advanceClock(NODE_TIMEOUT_MS + 1_000);
    await presence.sweep();
    expect((await userRow(driver.user.id)).isOnline).toBe(false);
  });

  it('a starting node leaves the others’ users alone on PostgreSQL; with SQLite the nodes before it are gone', async () => {
    const driver = await makeUser('conductor');
    await otherNode([driver.user.id]);
    await presence.reset();
    expect((await userRow(driver.user.id)).isOnline).toBe(isPostgres);
    expect((await intervals(driver.user.id))[0]!.endedAt === null).toBe(isPostgres);
  });

  it('forgetting a user (deleted, revoked) takes them offline on every node', async () => {
    const driver = await makeUser('conductor');
    await otherNode([driver.user.id]);
    await presence.forget(driver.user.id);
    expect((await userRow(driver.user.id)).isOnline).toBe(false);
    expect(await db.select().from(nodePresence).where(eq(nodePresence.userId, driver.user.id))).toEqual([]);
  });
});

// The staff's shared board (issue 17, services/board.ts): one computation per board version and class,
// revalidated with ETag / If-None-Match (304 while nothing changed); a task change, an assignee's presence
// and the sliding 24-hour window each give a new version. Drivers' lists are not shared.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Task } from '@shared/schemas';
import { presence } from '../../server/services/presence';
import { sharedBoard } from '../../server/services/board';
import { isPostgres } from '../../server/db';
import { markShownWriter } from '../../server/db/dialect';
import { advanceClock, makeTask, makeUser, now, setupApp, tx, type TestUser } from '../helpers/context';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
beforeEach(async () => {
  ({ api } = await setupApp());
});

const board = (who: TestUser, etag?: string) => {
  const req = api().get('/api/tasks').set(who.auth);
  return etag ? req.set('If-None-Match', etag) : req;
};

describe('GET /api/tasks for staff: shared and revalidated', () => {
  it('answers 304 to the same version, and a new version after any task change', async () => {
    const manager = await makeUser('manager');
    await makeTask({ trailerId: 'R-0001-BRD' });
    const first = await board(manager);
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    expect((first.body as Task[]).map((t) => t.trailer_id)).toEqual(['R-0001-BRD']);

    const again = await board(manager, etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');

    const created = await api().post('/api/tasks').set(manager.auth).send({
      title: 'Mover',
      origin: 'Muelle 2',
      destination: 'Campa B-01',
      trailer_id: 'R-0002-BRD',
      priority: 'normal',
      vehicle_type: 'swap',
    });
    expect(created.status).toBe(201);
    const changed = await board(manager, etag);
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect((changed.body as Task[]).map((t) => t.trailer_id).sort()).toEqual(['R-0001-BRD', 'R-0002-BRD']);
  });

  it('a new version when the assignee goes offline: assignee_online belongs to the version', async () => {
    const admin = await makeUser('admin');
    const driver = await makeUser('conductor');
    await presence.touch(driver.user.id);
    await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const online = await board(admin);
    expect((online.body as Task[])[0]).toMatchObject({ assignee_online: true });

    await presence.forget(driver.user.id);
    const offline = await board(admin, online.headers.etag as string);
    expect(offline.status).toBe(200);
    expect((offline.body as Task[])[0]).toMatchObject({ assignee_online: false });
  });

  it('gestores and supervisors have boards of their own; the finished tasks slide out after 24 h', async () => {
    const manager = await makeUser('manager');
    const gestor = await makeUser('gestor');
    await makeTask({ status: 'finalizada', completedAt: now(), trailerId: 'R-0003-BRD' });
    const managers = await board(manager);
    const gestors = await board(gestor);
    expect(gestors.headers.etag).not.toBe(managers.headers.etag);
    expect((managers.body as Task[]).map((t) => t.trailer_id)).toEqual(['R-0003-BRD']);
    expect(gestors.body).toEqual([]);
    // Another manager's screen gets the same version: 304 with the first one's ETag.
    expect((await board(await makeUser('manager'), managers.headers.etag as string)).status).toBe(304);

    await advanceClock(25 * 60 * 60_000);
    // (A new screen: the first one's token has expired meanwhile.)
    const later = await board(await makeUser('manager'), managers.headers.etag as string);
    expect(later.status).toBe(200);
    expect(later.body).toEqual([]);
  });

  // PostgreSQL runs transactions side by side: one that began earlier may commit later with an older
  // updated_at, so a version read while a task writer runs would not move when it commits (db/dialect.ts).
  it('a version read while a task writer runs is not kept on PostgreSQL; a commit forgets the kept answers', async () => {
    const manager = await makeUser('manager');
    await makeTask({ trailerId: 'R-0006-BRD' });
    // A writer's transaction held open while the board's version is read from outside it.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let marked!: () => void;
    const isMarked = new Promise<void>((r) => (marked = r));
    const writer = tx(async () => {
      await markShownWriter();
      marked();
      await held;
    });
    await isMarked;
    const during = await sharedBoard(manager.user);
    release();
    await writer;
    // SQLite's one writer commits in the order writers began: its versions are always kept.
    expect(during!.etag).toEqual(isPostgres ? undefined : expect.stringMatching(/^W\//));

    const kept = await sharedBoard(manager.user);
    const before = await kept!.body();
    expect(await (await sharedBoard(manager.user))!.body()).toBe(before);
    // A change committed by this node: the next answer is computed again, whatever the version says.
    const res = await api().post('/api/tasks').set(manager.auth).send({
      title: 'Mover', origin: 'Muelle 2', destination: 'Campa B-01', trailer_id: 'R-0007-BRD', vehicle_type: 'swap',
    });
    expect(res.status).toBe(201);
    expect(await kept!.body()).not.toBe(before);
  }); // prettier-ignore

  it("a driver's list is their own: never shared, never kept", async () => {
    const driver = await makeUser('conductor', { taskTypes: ['swap'] });
    await makeTask({ vehicleType: 'swap', trailerId: 'R-0004-BRD' });
    await makeTask({ vehicleType: 'semiremolque', trailerId: 'R-0005-BRD' });
    const res = await board(driver);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect((res.body as Task[]).map((t) => t.trailer_id)).toEqual(['R-0004-BRD']);
  });
});

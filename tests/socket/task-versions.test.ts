// CONTRACT §5/§19 (issue 26): any change to what a task shows bumps its version and is pushed — also the
// changes made from outside the tasks' own endpoints: a catalogue change that re-points a task's place
// (its origin_location_id) and an admin renaming a user a task shows (assigned_to_name, created_by_name).
// The board's shared answer must not survive them either: its ETag changes.
import { describe, expect, it } from 'vitest';
import type { Location, Task } from '@shared/schemas';
import { collect, liveServer, makeTask, makeUser, nextMatching, now } from '../helpers/context';
import { boardReader, versionOf } from '../helpers/board';

const server = liveServer();

const { board, settledEtag } = boardReader(server);
const updatedTask = (socket: Parameters<typeof collect>[0], id: string, pick: (t: Task) => boolean) =>
  nextMatching(socket, 'task:updated', ({ task }) => task.id === id && pick(task));

describe('a catalogue change re-points a task', () => {
  it('bumps its version, pushes it to who sees it, and the board answers anew', async () => {
    const manager = await makeUser('manager');
    const driver = await makeUser('conductor', { taskTypes: ['swap'] });
    const task = await server.createTask(manager, { origin: 'Muelle Norte 7', vehicle_type: 'swap' });
    expect(task).toMatchObject({ origin_location_id: null, version: 1 });
    // Off every board: re-pointed (and its version moves) but pushed to nobody.
    const old = await makeTask({
      origin: 'Muelle Norte 7',
      status: 'finalizada',
      completedAt: new Date(now().getTime() - 3 * 24 * 3600_000),
    });
    const [sm, sd] = await Promise.all([server.connect(manager.token), server.connect(driver.token)]);
    const staffUpdates = collect(sm, 'task:updated');
    const etag = await settledEtag(manager);

    const pushed = [sm, sd].map((s) => updatedTask(s, task.id, (t) => t.origin_location_id !== null));
    const created = await server
      .api()
      .post('/api/admin/locations')
      .set(manager.auth)
      .send({ code: 'MN-7', name: 'muelle norte 7', kind: 'muelle', zone: 'Norte', capacity: 1, x: 0, y: 0 });
    expect(created.status).toBe(201);
    const place = created.body as Location;
    for (const p of pushed)
      expect((await p).task).toMatchObject({ origin_location_id: place.id, version: 2 });
    expect(await versionOf(task.id)).toBe(2);
    expect(await versionOf(old.id)).toBe(2);
    expect(staffUpdates.map((u) => u.task.id)).not.toContain(old.id);

    const after = await board(manager, etag);
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect((after.body as Task[]).find((t) => t.id === task.id)).toMatchObject({
      origin_location_id: place.id,
      version: 2,
    });
  });
});

describe('an admin renames a user a task shows', () => {
  it("bumps the assignee's and the creator's open tasks, pushes them, and the board answers anew", async () => {
    const admin = await makeUser('admin');
    const manager = await makeUser('manager');
    const driver = await makeUser('conductor', { taskTypes: ['semiremolque'] });
    const held = await makeTask({
      status: 'en_proceso',
      assignedTo: driver.user.id,
      createdBy: manager.user.id,
    });
    const pool = await makeTask({ createdBy: manager.user.id });
    const finishedLongAgo = await makeTask({
      status: 'finalizada',
      assignedTo: driver.user.id,
      completedAt: new Date(now().getTime() - 3 * 24 * 3600_000),
    });
    const [sa, sd] = await Promise.all([server.connect(admin.token), server.connect(driver.token)]);
    const etag = await settledEtag(admin);

    const staffSees = updatedTask(sa, held.id, (t) => t.assigned_to_name === 'Conductor Renombrado');
    const driverSees = updatedTask(sd, held.id, (t) => t.assigned_to_name === 'Conductor Renombrado');
    const renamed = await server
      .api()
      .put(`/api/admin/users/${driver.user.id}`)
      .set(admin.auth)
      .send({ name: 'Conductor Renombrado' });
    expect(renamed.status).toBe(200);
    expect((await staffSees).task.version).toBe(2);
    expect((await driverSees).task.version).toBe(2);
    // Nobody watches a task finished days ago: its version stays.
    expect(await versionOf(finishedLongAgo.id)).toBe(1);

    const after = await board(admin, etag);
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect((after.body as Task[]).find((t) => t.id === held.id)).toMatchObject({
      assigned_to_name: 'Conductor Renombrado',
      version: 2,
    });

    // The creator's name: both of the manager's tasks.
    const creatorSees = [held, pool].map((t) =>
      updatedTask(sa, t.id, (u) => u.created_by_name === 'Jefa Renombrada'),
    );
    const again = await server
      .api()
      .put(`/api/admin/users/${manager.user.id}`)
      .set(admin.auth)
      .send({ name: 'Jefa Renombrada' });
    expect(again.status).toBe(200);
    expect((await creatorSees[0]!).task.version).toBe(3);
    expect((await creatorSees[1]!).task.version).toBe(2);

    // Only the email: no task shows it, none moves.
    const email = await server
      .api()
      .put(`/api/admin/users/${manager.user.id}`)
      .set(admin.auth)
      .send({ email: 'jefa.renombrada@example.com' });
    expect(email.status).toBe(200);
    expect(await versionOf(pool.id)).toBe(2);
  });
});

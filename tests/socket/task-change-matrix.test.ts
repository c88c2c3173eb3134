// CONTRACT §5/§19 (issue 26 item 3): every command and every admin action that changes what a task shows
// bumps its version, is pushed to who sees it and changes the staff board's shared answer (its ETag) — one
// case a way of changing a task, each checked the same three ways.
import { describe, expect, it } from 'vitest';
import type { Task } from '@shared/schemas';
import {
  liveServer,
  makeTask,
  makeUser,
  nextMatching,
  type TestSocket,
  type TestUser,
} from '../helpers/context';
import { boardReader, versionOf } from '../helpers/board';

const server = liveServer();

const { board, settledEtag } = boardReader(server);

interface Scene {
  admin: TestUser;
  manager: TestUser;
  driver: TestUser;
  task: Task | { id: string };
}
type Act = (s: Scene) => Promise<{ status: number }>;

/** A Swap task in the pool (nobody is assigned it by the engine), or a driver's task in progress. */
const pool = async (s: Omit<Scene, 'task'>) =>
  server.createTask(s.manager, { vehicle_type: 'swap', description: 'antes' });
const inProgress = async (s: Omit<Scene, 'task'>) =>
  makeTask({
    status: 'en_proceso',
    vehicleType: 'swap',
    assignedTo: s.driver.user.id,
    createdBy: s.manager.user.id,
  });
const finished = async (s: Omit<Scene, 'task'>) =>
  makeTask({
    status: 'finalizada',
    vehicleType: 'swap',
    assignedTo: s.driver.user.id,
    completedAt: new Date(),
  });

const cases: [string, (s: Omit<Scene, 'task'>) => Promise<{ id: string }>, Act][] = [
  ['staff edit (PUT description)', pool, (s) => server.put(s.task.id, { description: 'después' }, s.manager)],
  [
    'staff assign (PUT en_proceso + driver)',
    pool,
    (s) => server.put(s.task.id, { status: 'en_proceso', assigned_to: s.driver.user.id }, s.manager),
  ],
  ['staff hold', pool, (s) => server.put(s.task.id, { on_hold: true, hold_reason: 'Grúa' }, s.manager)],
  [
    'staff release',
    async (s) => {
      const t = await pool(s);
      expect((await server.put(t.id, { on_hold: true }, s.manager)).status).toBe(200);
      return t;
    },
    (s) => server.put(s.task.id, { on_hold: false }, s.manager),
  ],
  [
    'staff finish (PUT finalizada)',
    inProgress,
    (s) => server.put(s.task.id, { status: 'finalizada' }, s.admin),
  ],
  [
    'staff reopen (PUT finalizada → pool)',
    finished,
    (s) => server.put(s.task.id, { status: 'bolsa_trabajo' }, s.admin),
  ],
  [
    'driver self-assign',
    pool,
    (s) => server.api().post(`/api/tasks/${s.task.id}/self-assign`).set(s.driver.auth),
  ],
  [
    'driver complete',
    inProgress,
    (s) => server.api().post(`/api/tasks/${s.task.id}/complete`).set(s.driver.auth),
  ],
  [
    'driver return',
    inProgress,
    (s) => server.api().post(`/api/tasks/${s.task.id}/return`).set(s.driver.auth).send({ reason: 'Otro' }),
  ],
  [
    "admin changes the driver's role (their task goes back to the pool)",
    inProgress,
    (s) =>
      server
        .api()
        .post('/api/admin/update-user-role')
        .set(s.admin.auth)
        .send({ user_id: s.driver.user.id, new_role: 'gestor' }),
  ],
  [
    'admin deletes the driver (their task goes back to the pool)',
    inProgress,
    (s) => server.api().delete(`/api/admin/delete-user/${s.driver.user.id}`).set(s.admin.auth),
  ],
  [
    "staff edit the task's trailer (PUT /trailers kind, ADR)",
    pool,
    async (s) => {
      const plate = encodeURIComponent((s.task as Task).trailer_id);
      const read = await server.api().get(`/api/trailers/${plate}`).set(s.manager.auth);
      expect(read.status, read.text).toBe(200);
      return server
        .api()
        .put(`/api/trailers/${plate}`)
        .set(s.manager.auth)
        .send({
          kind: 'cisterna',
          adr: true,
          version: (read.body as { trailer: { version: number } }).trailer.version,
        });
    },
  ],
  [
    'admin renames the driver',
    inProgress,
    (s) =>
      server
        .api()
        .put(`/api/admin/users/${s.driver.user.id}`)
        .set(s.admin.auth)
        .send({ name: 'Otro Nombre' }),
  ],
];

describe('every change to what a task shows: version + 1, pushed, a new board answer', () => {
  it.each(cases)('%s', async (_name, make, act) => {
    const people = {
      admin: await makeUser('admin'),
      manager: await makeUser('manager'),
      driver: await makeUser('conductor', { taskTypes: ['swap'] }),
    };
    const task = await make(people);
    const before = await versionOf(task.id);
    const staff: TestSocket = await server.connect(people.admin.token);
    const etag = await settledEtag(people.admin);
    const pushed = nextMatching(
      staff,
      'task:updated',
      ({ task: t }) => t.id === task.id && t.version > before,
    );

    const res = await act({ ...people, task });
    expect(res.status).toBe(200);

    const after = await versionOf(task.id);
    expect(after).toBeGreaterThan(before);
    expect((await pushed).task.version).toBe(after);
    const answer = await board(people.admin, etag);
    expect(answer.status).toBe(200);
    expect(answer.headers.etag).not.toBe(etag);
    expect((answer.body as Task[]).find((t) => t.id === task.id)?.version).toBe(after);
  });

  it('a deletion is pushed as task:deleted and leaves the board', async () => {
    const manager = await makeUser('manager');
    const task = await server.createTask(manager, { vehicle_type: 'swap' });
    const staff = await server.connect(manager.token);
    const etag = await settledEtag(manager);
    const deleted = nextMatching(staff, 'task:deleted', ({ id }) => id === task.id);
    expect((await server.api().delete(`/api/tasks/${task.id}`).set(manager.auth)).status).toBe(200);
    await deleted;
    const answer = await board(manager, etag);
    expect(answer.status).toBe(200);
    expect((answer.body as Task[]).map((t) => t.id)).not.toContain(task.id);
  });
});

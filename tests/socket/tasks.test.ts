// Task pushes per room (CONTRACT §9): who hears of each change, and — the leak tests — who never does.
// "Never" is checked without timers: events on one socket arrive in the order the server sent them, so
// once a later event (a barrier) arrives, anything that should have come before it has come.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '@shared/schemas';
import {
  collect,
  liveServer,
  makePunch,
  makeUser,
  nextEvent,
  nextMatching,
  type TestSocket,
  type TestUser,
} from '../helpers/context';
import { presence } from '../../server/services/presence';

const server = liveServer();
let admin: TestUser;

beforeAll(async () => {
  admin = await makeUser('admin');
});

const connect = (user: TestUser) => server.connect(user.token);
const createTask = (body: Record<string, unknown> = {}) => server.createTask(admin, body);
const put = (id: string, body: object, who: TestUser = admin) => server.put(id, body, who);
/** Creates a semiremolque pool task and waits until every socket has heard of it. */
async function barrier(...sockets: TestSocket[]): Promise<void> {
  const heard = sockets.map((s) => nextEvent(s, 'task:created'));
  const task = await createTask();
  for (const p of heard) expect((await p).task.id).toBe(task.id);
}
const ids = (events: { task?: Task; id?: string }[]) => events.map((e) => e.task?.id ?? e.id);

describe('task events by room', () => {
  it('a new pool task reaches staff and the drivers having its type only', async () => {
    const manager = await makeUser('manager');
    const gestor = await makeUser('gestor');
    const semi = await makeUser('conductor');
    const swapOnly = await makeUser('conductor', { taskTypes: ['swap'] });
    const [sa, sm, sg, sd, sx] = await Promise.all([admin, manager, gestor, semi, swapOnly].map(connect));
    const swapperHeard = collect(sx, 'task:created');
    const waits = [sa, sm, sg, sd].map((s) => nextEvent(s, 'task:created'));
    const task = await createTask();
    for (const w of waits) expect((await w).task).toMatchObject({ id: task.id, version: 1 });

    const swapTask = nextEvent(sx, 'task:created');
    const created = await createTask({ vehicle_type: 'swap' });
    expect((await swapTask).task.id).toBe(created.id);
    expect(ids(swapperHeard)).toEqual([created.id]);
  });

  it('a driver without swap hears nothing about swap tasks', async () => {
    const plain = await makeUser('conductor');
    const swapperA = await makeUser('conductor', { taskTypes: ['swap'] });
    const [sp] = await Promise.all([plain].map(connect));
    const lists = (['task:created', 'task:updated', 'task:deleted', 'task:removed'] as const).map((e) =>
      collect(sp, e as 'task:created'),
    );
    const swap = await createTask({ vehicle_type: 'swap' });
    expect((await put(swap.id, { priority: 'high' })).status).toBe(200);
    const claim = await server.api().post(`/api/tasks/${swap.id}/self-assign`).set(swapperA.auth);
    expect(claim.status).toBe(200);
    expect((await server.api().delete(`/api/tasks/${swap.id}`).set(admin.auth)).status).toBe(200);
    await barrier(sp);
    const heard = lists.flat();
    expect(heard).toHaveLength(1);
    expect(ids(heard)).not.toContain(swap.id);
  });

  it('a claimed pool task leaves the other drivers with task:removed carrying only the id', async () => {
    const winner = await makeUser('conductor', { taskTypes: ['swap'] });
    const rival = await makeUser('conductor', { taskTypes: ['swap'] });
    const gestor = await makeUser('gestor');
    const [sw, sr, sg] = await Promise.all([winner, rival, gestor].map(connect));
    const task = await createTask({ vehicle_type: 'swap' });
    const removed = nextEvent(sr, 'task:removed');
    const mine = nextEvent(sw, 'task:updated');
    const staff = nextEvent(sg, 'task:updated');
    const winnerRemoved = collect(sw, 'task:removed');
    expect((await server.api().post(`/api/tasks/${task.id}/self-assign`).set(winner.auth)).status).toBe(200);
    expect(await removed).toEqual({ id: task.id });
    expect((await mine).task).toMatchObject({ id: task.id, assigned_to: winner.user.id, version: 2 });
    expect((await staff).task).toMatchObject({ id: task.id, status: 'en_proceso' });

    // Later changes to the winner's task never reach the rival; the winner hears them.
    const rivalUpdates = collect(sr, 'task:updated');
    const edited = nextEvent(sw, 'task:updated');
    expect((await put(task.id, { description: 'Junto a la báscula' })).status).toBe(200);
    expect((await edited).task.description).toBe('Junto a la báscula');
    const swapBarrier = nextEvent(sr, 'task:created');
    await createTask({ vehicle_type: 'swap' });
    await swapBarrier;
    expect(rivalUpdates).toEqual([]);
    expect(winnerRemoved).toEqual([]);
  });

  it('the gestor never receives a finalizada task', async () => {
    const gestor = await makeUser('gestor');
    const manager = await makeUser('manager');
    const driver = await makeUser('conductor');
    const [sg, sm, sd] = await Promise.all([gestor, manager, driver].map(connect));
    const task = await createTask();
    await put(task.id, { status: 'en_proceso', assigned_to: driver.user.id });
    const gestorUpdates = collect(sg, 'task:updated');
    const gestorDeleted = collect(sg, 'task:deleted');
    const gone = nextEvent(sg, 'task:removed');
    const managerSees = nextEvent(sm, 'task:updated');
    const driverSees = nextEvent(sd, 'task:updated');
    expect((await server.api().post(`/api/tasks/${task.id}/complete`).set(driver.auth)).status).toBe(200);
    expect(await gone).toEqual({ id: task.id });
    expect((await managerSees).task.status).toBe('finalizada');
    expect((await driverSees).task.status).toBe('finalizada');

    const managerDeleted = nextEvent(sm, 'task:deleted');
    expect((await server.api().delete(`/api/tasks/${task.id}`).set(admin.auth)).status).toBe(200);
    expect(await managerDeleted).toEqual({ id: task.id });
    await barrier(sg);
    expect(gestorUpdates.filter((e) => e.task.status === 'finalizada')).toEqual([]);
    expect(gestorDeleted).toEqual([]);
  });
});

describe('assignment pushes', () => {
  it('a driver who clocks in is given the task waiting in the pool (the round after the punch commits)', async () => {
    const waiting = await createTask({ priority: 'high' });
    expect(waiting.assigned_to).toBeNull();
    const driver = await makeUser('conductor');
    const socket = await connect(driver);
    await presence.settled();
    const given = nextMatching(socket, 'task:updated', ({ task }) => task.id === waiting.id);
    const punched = await server.api().post('/api/timeclock/punch?clock_type=entrada').set(driver.auth);
    expect(punched.status).toBe(200);
    expect((await given).task).toMatchObject({ status: 'en_proceso', assigned_to: driver.user.id });
  });

  it('the auto-assigned driver gets the task and a sounding notification; nobody else gets it', async () => {
    const chosen = await makeUser('conductor');
    const bystander = await makeUser('conductor');
    const [sc, sb, sa] = await Promise.all([chosen, bystander, admin].map(connect));
    // Online once the connection's presence is stored (its own transaction, after the connect: on
    // PostgreSQL it may still be under way when the task's transaction starts).
    await presence.settled();
    await makePunch(chosen.user.id, 'entrada');
    const othersNotes = collect(sb, 'notification:new');
    const bystanderHeard = [
      collect(sb, 'task:created'),
      collect(sb, 'task:updated'),
      collect(sb, 'task:removed'),
    ];
    const note = nextEvent(sc, 'notification:new');
    // Created and assigned in one commit: it arrives already assigned, never as a pool card.
    const assigned = nextEvent(sc, 'task:created');
    const staffSaw = nextEvent(sa, 'task:created');
    const task = await createTask({ priority: 'high' });
    expect(task.assigned_to).toBe(chosen.user.id);
    expect((await note).notification).toMatchObject({
      type: 'task_assigned',
      title: 'Nueva tarea asignada',
      play_sound: true,
      is_read: false,
      task_id: task.id,
    });
    expect((await assigned).task).toMatchObject({
      id: task.id,
      status: 'en_proceso',
      assigned_to: chosen.user.id,
    });
    expect((await staffSaw).task.assigned_to).toBe(chosen.user.id);

    // The bystander's own notification is the first and only one they ever get.
    const own = nextEvent(sb, 'notification:new');
    const pool = await createTask({ trailer_id: 'S-OWN' });
    expect((await put(pool.id, { assigned_to: bystander.user.id })).status).toBe(200);
    expect((await own).notification.task_id).toBe(pool.id);
    expect(othersNotes).toHaveLength(1);
    expect(bystanderHeard.flat().filter((e) => ('task' in e ? e.task.id : e.id) === task.id)).toEqual([]);
  });

  it('a reassigned driver is told the task left them, with its id only', async () => {
    const first = await makeUser('conductor');
    const second = await makeUser('conductor');
    const [sf, ss] = await Promise.all([first, second].map(connect));
    const task = await createTask();
    await put(task.id, { assigned_to: first.user.id });
    const removed = nextEvent(sf, 'task:removed');
    const got = nextEvent(ss, 'task:updated');
    expect((await put(task.id, { assigned_to: second.user.id })).status).toBe(200);
    expect(await removed).toEqual({ id: task.id });
    expect((await got).task.assigned_to).toBe(second.user.id);
  });
});

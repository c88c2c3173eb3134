// Deadlines (CONTRACT §20): `due_at` on create and PUT, judged against the server's (test) clock, and
// `late_s` recorded by a completion from its believed time (§16's client_time), cleared by a reopening.
import { beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { DEADLINE_TEXT } from '@shared/labels';
import type { Task } from '@shared/schemas';
import { activityLog, taskEvents, tasks } from '../../server/db/tables';
import { advanceClock, db, makeUser, now, setupApp, type TestUser } from '../helpers/context';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let manager: TestUser;
beforeEach(async () => {
  ({ api } = await setupApp());
  manager = await makeUser('manager');
});

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const fromNow = (ms: number) => new Date(now().getTime() + ms);
let trailerSeq = 0;
const payload = (over: Record<string, unknown> = {}) => ({
  title: 'Mover',
  origin: 'Muelle 3',
  destination: 'Campa A-12',
  trailer_id: `R-${++trailerSeq}-DL`,
  ...over,
});
const row = async (id: string) => (await db.select().from(tasks).where(eq(tasks.id, id)).limit(1))[0]!;
const eventTypes = async (id: string) =>
  (await db.select().from(taskEvents).where(eq(taskEvents.taskId, id))).map((e) => e.type);

async function create(dueAt: Date | string | null | undefined): Promise<Task> {
  const res = await api()
    .post('/api/tasks')
    .set(manager.auth)
    .send(
      payload(dueAt === undefined ? {} : { due_at: dueAt instanceof Date ? dueAt.toISOString() : dueAt }),
    );
  expect(res.status).toBe(201);
  return res.body as Task;
}
const put = (id: string, body: object) => api().put(`/api/tasks/${id}`).set(manager.auth).send(body);

/** A task with that deadline, given to a driver (staff's assignment). */
async function assigned(dueAt: Date | null): Promise<{ task: Task; driver: TestUser }> {
  const driver = await makeUser('conductor');
  const task = await create(dueAt);
  const res = await put(task.id, { assigned_to: driver.user.id });
  expect(res.status).toBe(200);
  return { task: res.body as Task, driver };
}
const complete = (driver: TestUser, id: string, body: object = {}) =>
  api().post(`/api/tasks/${id}/complete`).set(driver.auth).send(body);

describe('POST /api/tasks with due_at', () => {
  it('keeps the deadline (UTC ISO, any offset in) with no lateness yet', async () => {
    const due = fromNow(90 * MIN);
    const withOffset = new Date(due.getTime() + 60 * MIN).toISOString().replace('Z', '+01:00');
    const task = await create(withOffset);
    expect(task).toMatchObject({ due_at: due.toISOString(), late_s: null, version: 1 });
    expect((await row(task.id)).dueAt).toEqual(due);
    // Without one: null; 29 days ahead is still accepted.
    expect(await create(undefined)).toMatchObject({ due_at: null, late_s: null });
    expect(await create(null)).toMatchObject({ due_at: null });
    expect((await create(fromNow(29 * DAY))).due_at).not.toBeNull();
  });

  it.each([
    ['in the past', (): string => fromNow(-MIN).toISOString(), DEADLINE_TEXT.past],
    ['more than 30 days ahead', (): string => fromNow(30 * DAY + MIN).toISOString(), DEADLINE_TEXT.tooFar],
    // The shared schema's refusal, named by its field like every validation error.
    ['not a date', (): string => 'mañana', `due_at: ${DEADLINE_TEXT.invalid}`],
  ])('refuses a deadline %s with a 400, nothing written', async (_label, dueAt, detail) => {
    const res = await api()
      .post('/api/tasks')
      .set(manager.auth)
      .send(payload({ due_at: dueAt() }));
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe(detail);
    expect(await db.select().from(tasks)).toEqual([]);
  });

  it('judges "now" by the server clock: a deadline fine now is past once the clock moved', async () => {
    const due = fromNow(10 * MIN);
    expect((await create(due)).due_at).toBe(due.toISOString());
    await advanceClock(11 * MIN);
    const res = await api()
      .post('/api/tasks')
      .set(manager.auth)
      .send(payload({ due_at: due.toISOString() }));
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('La hora límite ya ha pasado');
    expect(DEADLINE_TEXT.tooFar).toBe('La hora límite es demasiado lejana');
  });
});

describe('PUT /api/tasks/{id} with due_at', () => {
  it('a new deadline is an edit: version + 1, an updated event, a log line naming it', async () => {
    const task = await create(undefined);
    const due = fromNow(2 * 60 * MIN);
    const res = await put(task.id, { due_at: due.toISOString() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ due_at: due.toISOString(), version: 2 });
    expect(await eventTypes(task.id)).toEqual(['created', 'updated']);
    const [log] = await db.select().from(activityLog).where(eq(activityLog.action, 'Editar tarea'));
    expect(log!.details).toContain('hora límite');
  });

  it('refuses a new past or too far deadline, nothing written', async () => {
    const task = await create(fromNow(60 * MIN));
    for (const [dueAt, detail] of [
      [fromNow(-MIN), DEADLINE_TEXT.past],
      [fromNow(31 * DAY), DEADLINE_TEXT.tooFar],
    ] as const) {
      const res = await put(task.id, { due_at: dueAt.toISOString() });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(detail);
    }
    expect(await row(task.id)).toMatchObject({ version: 1, dueAt: new Date(task.due_at!) });
    expect(await eventTypes(task.id)).toEqual(['created']);
  });

  it('accepts an unchanged deadline that has passed (the editor sends the whole form)', async () => {
    const task = await create(fromNow(10 * MIN));
    await advanceClock(20 * MIN);
    const same = await put(task.id, { due_at: task.due_at, priority: 'high' });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ due_at: task.due_at, priority: 'high', version: 2 });
    const [log] = await db.select().from(activityLog).where(eq(activityLog.action, 'Editar tarea'));
    expect(log!.details).not.toContain('hora límite');
    // Alone, it changes nothing.
    const alone = await put(task.id, { due_at: task.due_at });
    expect(alone.status).toBe(200);
    expect(alone.body.version).toBe(2);
  });

  it('null clears the deadline', async () => {
    const task = await create(fromNow(10 * MIN));
    await advanceClock(20 * MIN);
    const res = await put(task.id, { due_at: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ due_at: null, version: 2 });
    expect((await row(task.id)).dueAt).toBeNull();
    expect(await eventTypes(task.id)).toEqual(['created', 'updated']);
  });
});

describe('late_s on completion (CONTRACT §20)', () => {
  it('a late completion records the whole seconds after the deadline', async () => {
    const due = fromNow(30 * MIN);
    const { task, driver } = await assigned(due);
    await advanceClock(42 * MIN);
    expect((await complete(driver, task.id)).status).toBe(200);
    const done = await row(task.id);
    expect(done.status).toBe('finalizada');
    expect(done.lateS).toBe(Math.round((done.completedAt!.getTime() - due.getTime()) / 1000));
    expect(done.lateS).toBeGreaterThanOrEqual(12 * 60);
    expect(done.lateS).toBeLessThan(12 * 60 + 5);
  });

  it('on time is 0; without a deadline null', async () => {
    const onTime = await assigned(fromNow(30 * MIN));
    await advanceClock(10 * MIN);
    expect((await complete(onTime.driver, onTime.task.id)).status).toBe(200);
    expect(await row(onTime.task.id)).toMatchObject({ status: 'finalizada', lateS: 0 });

    const none = await assigned(null);
    expect((await complete(none.driver, none.task.id)).status).toBe(200);
    expect(await row(none.task.id)).toMatchObject({ status: 'finalizada', lateS: null });
  });

  it("counts from the believed client_time of an offline completion, not the server's", async () => {
    const due = fromNow(30 * MIN);
    const early = await assigned(due);
    const late = await assigned(due);
    await advanceClock(50 * MIN);
    // Done 5 min before the deadline, told 15 min after it: on time.
    const before = new Date(due.getTime() - 5 * MIN);
    expect((await complete(early.driver, early.task.id, { client_time: before.toISOString() })).status).toBe(
      200,
    );
    expect(await row(early.task.id)).toMatchObject({ completedAt: before, lateS: 0 });
    // Done 3 min after it: 180 s, whatever the server's time now.
    const after = new Date(due.getTime() + 3 * MIN);
    expect((await complete(late.driver, late.task.id, { client_time: after.toISOString() })).status).toBe(
      200,
    );
    expect(await row(late.task.id)).toMatchObject({ completedAt: after, lateS: 180 });
  });

  it("staff's completion records it too; reopening sets it back to null and keeps the deadline", async () => {
    const due = fromNow(5 * MIN);
    const task = await create(due);
    await advanceClock(8 * MIN);
    const done = await put(task.id, { status: 'finalizada' });
    expect(done.status).toBe(200);
    expect(done.body.late_s).toBeGreaterThanOrEqual(3 * 60);
    expect(done.body.late_s).toBeLessThan(3 * 60 + 5);

    const reopened = await put(task.id, { status: 'bolsa_trabajo' });
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ status: 'bolsa_trabajo', late_s: null, due_at: due.toISOString() });
    expect(await row(task.id)).toMatchObject({ lateS: null, completedAt: null });
    const kinds = await db
      .select()
      .from(taskEvents)
      .where(and(eq(taskEvents.taskId, task.id), eq(taskEvents.type, 'reopened')));
    expect(kinds).toHaveLength(1);
  });
});

// Escalation (CONTRACT §20): the rules espera, plazo and retraso, evaluated on each /test/clock advance
// before it answers and after each task commit; once per task and rule (two evaluations racing, as two
// nodes would, give one notification each), to every approved staff user only, with the Spanish texts;
// the escalation Web Push at most once a minute per user.
import crypto from 'node:crypto';
import webpush from 'web-push';
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ESCALATION } from '@shared/constants';
import { rulesMet, type EscalationFacts } from '@shared/escalation';
import { ESCALATION_NOTICE } from '@shared/labels';
import type { Task } from '@shared/schemas';
import { formatTime } from '@shared/time';
import { notifications, taskEscalations, tasks } from '../../server/db/tables';
import { evaluateEscalations, stopEvaluations } from '../../server/services/escalation';
import { pushEscalationSummaries } from '../../server/services/push';
import { advanceClock, db, makeTask, makeUser, now, setupApp, tx, type TestUser } from '../helpers/context';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let manager: TestUser;
let admin: TestUser;
let gestor: TestUser;
let driver: TestUser;
let pending: TestUser;
beforeEach(async () => {
  ({ api } = await setupApp());
  manager = await makeUser('manager');
  admin = await makeUser('admin');
  gestor = await makeUser('gestor');
  driver = await makeUser('conductor');
  pending = await makeUser('gestor', { approved: false });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const MIN = 60_000;
let seq = 0;
const fromNow = (ms: number) => new Date(now().getTime() + ms).toISOString();

async function create(over: Record<string, unknown> = {}): Promise<Task> {
  const res = await api()
    .post('/api/tasks')
    .set(manager.auth)
    .send({
      title: 'Mover',
      origin: 'Muelle 3',
      destination: 'Campa A-12',
      trailer_id: `R-${++seq}-ESC`,
      vehicle_type: 'swap',
      ...over,
    });
  expect(res.status).toBe(201);
  return res.body as Task;
}

/** POST /api/test/clock: the evaluation is done when it answers. */
async function advance(ms: number): Promise<void> {
  const res = await api().post('/api/test/clock').send({ advance_ms: ms });
  expect(res.status).toBe(200);
}

const escalatedOf = async (userId: string) =>
  (
    await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.type, 'task_escalated')))
  ).map((n) => ({ taskId: n.taskId, title: n.title, message: n.message }));

const rulesOf = async (taskId: string) =>
  (await db.select().from(taskEscalations).where(eq(taskEscalations.taskId, taskId)))
    .map((r) => r.rule)
    .sort();

/** Each approved staff user got exactly these escalations (title, message, task); nobody else any. */
async function expectTold(expected: { taskId: string; title: string; message: string }[]): Promise<void> {
  for (const staff of [manager, admin, gestor]) {
    const got = await escalatedOf(staff.user.id);
    expect(got, staff.user.role).toEqual(expect.arrayContaining(expected));
    expect(got, staff.user.role).toHaveLength(expected.length);
  }
  expect(await escalatedOf(driver.user.id)).toEqual([]);
  expect(await escalatedOf(pending.user.id)).toEqual([]);
}

describe('espera: a pool task not held waiting more than 20 minutes', () => {
  it('escalates once, a Swap task included, to approved staff only, with its texts', async () => {
    const task = await create();
    const held = await create();
    expect((await api().put(`/api/tasks/${held.id}`).set(manager.auth).send({ on_hold: true })).status).toBe(
      200,
    );
    await advance(19 * MIN);
    expect(await rulesOf(task.id)).toEqual([]);
    await expectTold([]);

    await advance(2 * MIN);
    expect(await rulesOf(task.id)).toEqual(['espera']);
    const told = {
      taskId: task.id,
      title: `Tarea ${task.trailer_id}: requiere atención`,
      message: 'Lleva 21 min en la bolsa',
    };
    await expectTold([told]);
    // A held task waits on purpose.
    expect(await rulesOf(held.id)).toEqual([]);

    // Later evaluations, and the same task still waiting: nothing more.
    await advance(30 * MIN);
    await evaluateEscalations();
    await expectTold([told]);
  });

  it('once per task and rule across nodes: two evaluations racing notify once', async () => {
    // Straight into the database: no commit schedules an evaluation of its own.
    const row = await makeTask({ vehicleType: 'swap' });
    const task = { id: row.id, trailer_id: row.trailerId };
    // An evaluation the earlier commits scheduled (250 ms after them) would be a third racer: none left.
    await stopEvaluations();
    await advanceClock(25 * MIN);
    const made = await Promise.all([evaluateEscalations(), evaluateEscalations()]);
    expect(made.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await rulesOf(task.id)).toEqual(['espera']);
    await expectTold([
      {
        taskId: task.id,
        title: ESCALATION_NOTICE.title(task.trailer_id),
        message: 'Lleva 25 min en la bolsa',
      },
    ]);
  });
});

describe('the SQL prefilter and the shared rules', () => {
  it('escalate exactly the tasks and rules rulesMet() gives, at and around every threshold', async () => {
    // An evaluation the earlier commits scheduled would read the grid by the real clock, not `at`.
    await stopEvaluations();
    const at = now().getTime();
    const S = 1000;
    const since = [-ESCALATION.waitMs - S, -ESCALATION.waitMs, -ESCALATION.waitMs + S];
    const due = [
      null,
      -S,
      0,
      S,
      ESCALATION.dueWithinMs - S,
      ESCALATION.dueWithinMs,
      ESCALATION.dueWithinMs + S,
    ];
    const cases: { status: 'bolsa_trabajo' | 'en_proceso'; onHold: boolean }[] = [
      { status: 'bolsa_trabajo', onHold: false },
      { status: 'bolsa_trabajo', onHold: true },
      { status: 'en_proceso', onHold: false },
    ];
    const expected: string[] = [];
    for (const c of cases)
      for (const s of since)
        for (const d of due) {
          const assignee = c.status === 'en_proceso' ? (await makeUser('conductor')).user.id : null;
          const row = await makeTask({ status: c.status, assignedTo: assignee });
          const facts: EscalationFacts = { ...c, statusSinceMs: at + s, dueAtMs: d === null ? null : at + d };
          await tx(() =>
            db
              .update(tasks)
              .set({
                statusSince: new Date(facts.statusSinceMs),
                dueAt: d === null ? null : new Date(facts.dueAtMs!),
                onHold: c.onHold,
                holdSource: c.onHold ? 'staff' : null,
              })
              .where(eq(tasks.id, row.id)),
          );
          for (const rule of rulesMet(facts, at)) expected.push(`${row.id} ${rule}`);
        }
    // The evaluation reads the clock once: held at `at`, so the thresholds are met to the millisecond.
    vi.spyOn(Date, 'now').mockReturnValue(at - (now().getTime() - Date.now()));
    await evaluateEscalations();
    vi.restoreAllMocks();
    const made = (await db.select().from(taskEscalations)).map((r) => `${r.taskId} ${r.rule}`);
    expect(made.sort()).toEqual(expected.sort());
    // Each of the three rules is met somewhere and missed somewhere: the grid reaches every boundary.
    for (const rule of ['espera', 'plazo', 'retraso'])
      expect(expected.filter((e) => e.endsWith(rule)).length, rule).toBeGreaterThan(0);
  });
});

describe('plazo: a pool task, held or not, due in less than 20 minutes', () => {
  it('escalates on the clock advance with `Vence a las HH:mm` (Madrid)', async () => {
    const due = fromNow(30 * MIN);
    const task = await create({ due_at: due, vehicle_type: 'semiremolque' });
    expect((await api().put(`/api/tasks/${task.id}`).set(manager.auth).send({ on_hold: true })).status).toBe(
      200,
    );
    await advance(9 * MIN);
    expect(await rulesOf(task.id)).toEqual([]);
    await advance(2 * MIN);
    expect(await rulesOf(task.id)).toEqual(['plazo']);
    await expectTold([
      {
        taskId: task.id,
        title: ESCALATION_NOTICE.title(task.trailer_id),
        message: `Vence a las ${formatTime(due)}`,
      },
    ]);
  });

  it('is evaluated after a task commit, without any clock move', async () => {
    const due = fromNow(10 * MIN);
    const task = await create({ due_at: due });
    await vi.waitFor(async () => expect(await rulesOf(task.id)).toEqual(['plazo']), { timeout: 3000 });
    await vi.waitFor(() =>
      expectTold([
        {
          taskId: task.id,
          title: ESCALATION_NOTICE.title(task.trailer_id),
          message: `Vence a las ${formatTime(due)}`,
        },
      ]),
    );
  });
});

describe('retraso: an en_proceso task past its deadline', () => {
  it('escalates with `Retrasada {dur}`', async () => {
    const worker = await makeUser('conductor');
    const task = await create({ due_at: fromNow(30 * MIN), vehicle_type: 'semiremolque' });
    const put = await api()
      .put(`/api/tasks/${task.id}`)
      .set(manager.auth)
      .send({ assigned_to: worker.user.id });
    expect(put.status).toBe(200);
    expect(put.body.status).toBe('en_proceso');

    await advance(29 * MIN);
    expect(await rulesOf(task.id)).toEqual([]);
    await advance(3 * MIN);
    expect(await rulesOf(task.id)).toEqual(['retraso']);
    await expectTold([
      { taskId: task.id, title: ESCALATION_NOTICE.title(task.trailer_id), message: 'Retrasada 2 min' },
    ]);
  });
});

describe('Web Push of escalations', () => {
  const subscribe = async (user: TestUser) => {
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const res = await api()
      .post('/api/push/subscriptions')
      .set(user.auth)
      .send({
        endpoint: `https://fcm.googleapis.com/send/${crypto.randomUUID()}`,
        keys: {
          p256dh: ecdh.getPublicKey().toString('base64url'),
          auth: crypto.randomBytes(16).toString('base64url'),
        },
      });
    expect(res.status).toBeLessThan(300);
  };

  it('at most one a minute per user, counting the escalations since the last one; never to a driver', async () => {
    const send = vi
      .spyOn(webpush, 'sendNotification')
      .mockResolvedValue({ statusCode: 201, body: '', headers: {} });
    await subscribe(manager);
    await subscribe(driver);
    const titles = () => send.mock.calls.map((c) => (JSON.parse(String(c[1])) as { title: string }).title);

    await create();
    await advance(21 * MIN);
    await vi.waitFor(() => expect(titles()).toEqual(['1 tarea requiere atención']));
    expect(JSON.parse(String(send.mock.calls[0][1]))).toMatchObject({
      type: 'task_escalated',
      task_id: null,
    });

    // Two more within the minute: held back…
    await create({ due_at: fromNow(10 * MIN) });
    await create({ due_at: fromNow(15 * MIN) });
    await advance(10_000);
    await pushEscalationSummaries();
    expect(titles()).toEqual(['1 tarea requiere atención']);
    // …and sent, counted, once the minute is over; two nodes pushing at once send one.
    await advance(50_000);
    await Promise.all([pushEscalationSummaries(), pushEscalationSummaries()]);
    await vi.waitFor(() =>
      expect(titles()).toEqual(['1 tarea requiere atención', '2 tareas requieren atención']),
    );
    await advance(2 * MIN);
    expect(titles()).toHaveLength(2);
  });
});

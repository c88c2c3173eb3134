// Proof of the move (CONTRACT §20): POST /tasks/{id}/complete {proof, location_id}, where the trailer was
// really left (dropped_at_location_id → the yard's position), never refused for room (Sobreocupada), staff
// completions' `staff` proof, a reopening clearing it, and an offline replay with client_time and its key.
import { beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PROOF_TEXT } from '@shared/labels';
import type { Location, Task, YardLocation } from '@shared/schemas';
import { tasks, trailers } from '../../server/db/tables';
import { loadTaskById } from '../../server/presenters/tasks';
import { advanceClock, db, makeUser, now, setupApp, type TestUser } from '../helpers/context';
import { createMove, makePlace } from '../helpers/places';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let manager: TestUser;
let driver: TestUser;
let dock: Location;
let campa: Location;
beforeEach(async () => {
  ({ api } = await setupApp());
  manager = await makeUser('manager');
  driver = await makeUser('conductor', { taskTypes: ['swap'] });
  dock = await makePlace(api, manager, 'MU-01', 'Muelle 1', 'muelle', 5);
  campa = await makePlace(api, manager, 'CA-01', 'Campa 1', 'campa', 1);
});

let seq = 0;
/** A move to `destination` (a place, or free text with null) given to the driver. */
async function movingTask(destination: Location | null): Promise<Task> {
  const created = await createMove(api, manager, {
    trailer_id: `R-${++seq}-PR`,
    destination: destination?.name ?? 'Fuera',
    ...(destination ? { destination_location_id: destination.id } : {}),
  });
  expect(created.status, created.text).toBe(201);
  const given = await api()
    .put(`/api/tasks/${(created.body as Task).id}`)
    .set(manager.auth)
    .send({ assigned_to: driver.user.id });
  expect(given.status, given.text).toBe(200);
  return given.body as Task;
}
const complete = (id: string, body?: object, key?: string) => {
  const req = api().post(`/api/tasks/${id}/complete`).set(driver.auth);
  if (key) req.set('Idempotency-Key', key);
  return body ? req.send(body) : req;
};
/** The task as every listing presents it (the presenter all of them share). */
const getTask = async (id: string): Promise<Task> => (await loadTaskById(id))!;
const row = async (id: string) => (await db.select().from(tasks).where(eq(tasks.id, id)))[0]!;
const standing = async (trailerId: string) =>
  (await db.select().from(trailers).where(eq(trailers.trailerId, trailerId)))[0]?.locationId ?? null;
async function yard(): Promise<Map<string, YardLocation>> {
  const res = await api().get('/api/yard').set(manager.auth);
  expect(res.status).toBe(200);
  return new Map((res.body as YardLocation[]).map((l) => [l.code, l]));
}

describe('POST /tasks/{id}/complete with proof', () => {
  it('a scan at the destination completes as before: proof scan, no dropped place, trailer at the destination', async () => {
    const task = await movingTask(dock);
    const res = await complete(task.id, { proof: 'scan', location_id: dock.id });
    expect(res.status, res.text).toBe(200);
    expect(await getTask(task.id)).toMatchObject({
      status: 'finalizada',
      proof: 'scan',
      dropped_at_location_id: null,
      dropped_at_location_name: null,
    });
    expect(await standing(task.trailer_id)).toBe(dock.id);
  });

  it('no body: proof manual', async () => {
    const task = await movingTask(dock);
    expect((await complete(task.id)).status).toBe(200);
    expect(await row(task.id)).toMatchObject({ proof: 'manual', droppedAtLocationId: null });
  });

  it('another place moves the trailer there, never refused for room: the place shows over capacity', async () => {
    // Campa 1 (capacity 1) already holds a trailer.
    const first = await movingTask(campa);
    expect((await complete(first.id)).status).toBe(200);
    expect(await standing(first.trailer_id)).toBe(campa.id);

    const task = await movingTask(dock);
    const res = await complete(task.id, { proof: 'manual', location_id: campa.id });
    expect(res.status, res.text).toBe(200);
    expect(await getTask(task.id)).toMatchObject({
      status: 'finalizada',
      proof: 'manual',
      dropped_at_location_id: campa.id,
      dropped_at_location_name: 'Campa 1',
    });
    expect(await standing(task.trailer_id)).toBe(campa.id);
    const map = await yard();
    expect(
      map
        .get('CA-01')!
        .trailers.map((t) => t.trailer_id)
        .sort(),
    ).toEqual([first.trailer_id, task.trailer_id].sort());
    expect(map.get('CA-01')!.free).toBe(0);
    expect(map.get('MU-01')!.trailers).toEqual([]);
  });

  it('a free-text destination: any place is where it was left', async () => {
    const task = await movingTask(null);
    expect((await complete(task.id, { proof: 'scan', location_id: dock.id })).status).toBe(200);
    expect(await getTask(task.id)).toMatchObject({
      proof: 'scan',
      dropped_at_location_id: dock.id,
      dropped_at_location_name: 'Muelle 1',
    });
    expect(await standing(task.trailer_id)).toBe(dock.id);
  });

  it.each([
    ['unknown', () => '00000000-0000-4000-8000-000000000000'],
    ['inactive', () => 'inactive'],
    ['not an id', () => 'MU-01'],
  ])('an %s place is a 400 Ubicación desconocida, the task untouched', async (_label, id) => {
    const spare = await makePlace(api, manager, 'SP-01', 'Reserva', 'campa', 1);
    expect((await api().delete(`/api/admin/locations/${spare.id}`).set(manager.auth)).status).toBe(200);
    const task = await movingTask(dock);
    const locationId = id() === 'inactive' ? spare.id : id();
    const res = await complete(task.id, { proof: 'scan', location_id: locationId });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(PROOF_TEXT.unknownPlace);
    expect(await row(task.id)).toMatchObject({
      status: 'en_proceso',
      proof: null,
      droppedAtLocationId: null,
    });
  });

  it('a proof other than scan or manual is a 400 (staff is the server’s own)', async () => {
    const task = await movingTask(dock);
    const res = await complete(task.id, { proof: 'staff' });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(PROOF_TEXT.proofInvalid);
    expect((await row(task.id)).status).toBe('en_proceso');
  });

  it('staff completions record proof staff; a reopening clears proof and the dropped place', async () => {
    const task = await movingTask(dock);
    const done = await api().put(`/api/tasks/${task.id}`).set(manager.auth).send({ status: 'finalizada' });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ proof: 'staff', dropped_at_location_id: null });

    const other = await movingTask(dock);
    expect((await complete(other.id, { location_id: campa.id })).status).toBe(200);
    expect(await standing(other.trailer_id)).toBe(campa.id);
    const reopened = await api()
      .put(`/api/tasks/${other.id}`)
      .set(manager.auth)
      .send({ status: 'bolsa_trabajo' });
    expect(reopened.status, reopened.text).toBe(200);
    expect(reopened.body).toMatchObject({ proof: null, dropped_at_location_id: null, completed_at: null });
    expect(await row(other.id)).toMatchObject({ proof: null, droppedAtLocationId: null });
  });

  it('an offline replay carries the scan with client_time; its repeat with the same key changes nothing', async () => {
    const KEY = crypto.randomUUID();
    const task = await movingTask(dock);
    await advanceClock(5 * 60_000);
    const clientTime = new Date(now().getTime() - 60_000).toISOString();
    const body = { client_time: clientTime, proof: 'scan', location_id: campa.id };
    const first = await complete(task.id, body, KEY);
    expect(first.status, first.text).toBe(200);
    const again = await complete(task.id, body, KEY);
    expect(again.status).toBe(200);
    const stored = await row(task.id);
    expect(stored).toMatchObject({ proof: 'scan', droppedAtLocationId: campa.id, version: task.version + 1 });
    expect(stored.completedAt!.toISOString()).toBe(clientTime);
    expect(await standing(task.trailer_id)).toBe(campa.id);
  });
});

describe('the searcher’s trailer_last_location follows where the trailer stands (CONTRACT §19)', () => {
  const whereSearched = async (plate: string) => {
    const res = await api()
      .get('/api/admin/search/tasks')
      .query({ query: plate, search_type: 'trailer' })
      .set(manager.auth);
    expect(res.status).toBe(200);
    const [found] = res.body as {
      trailer_last_location: string | null;
      trailer_last_location_at: string | null;
    }[];
    return [found!.trailer_last_location, found!.trailer_last_location_at];
  };

  it('where it was really left, then a staff correction, then nowhere once it left the yard', async () => {
    const task = await movingTask(dock);
    expect((await complete(task.id, { proof: 'scan', location_id: campa.id })).status).toBe(200);
    const done = await getTask(task.id);
    expect(await whereSearched(task.trailer_id)).toEqual([campa.name, done.completed_at]);

    await advanceClock(60_000);
    const corrected = await api()
      .post(`/api/trailers/${encodeURIComponent(task.trailer_id)}/position`)
      .set(manager.auth)
      .send({ location_id: dock.id, note: 'Revisión del patio' });
    expect(corrected.status, corrected.text).toBe(200);
    const [place, since] = await whereSearched(task.trailer_id);
    expect(place).toBe(dock.name);
    expect(Date.parse(since!)).toBeGreaterThan(Date.parse(done.completed_at!));

    await advanceClock(60_000);
    const left = await api()
      .post(`/api/yard/trailers/${encodeURIComponent(task.trailer_id)}/leave`)
      .set(manager.auth)
      .send({});
    expect(left.status, left.text).toBe(200);
    expect(await whereSearched(task.trailer_id)).toEqual([null, null]);
  });
});

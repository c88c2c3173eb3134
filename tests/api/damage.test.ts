// A trailer's damage (issue 27, CONTRACT §19 "Damage"): staff mark and clear it; while damaged its pool tasks
// are held (`hold_source` damage, `Remolque con daños: {note}`) but one heading to a taller; clearing
// releases only those holds; a task created, returned or reopened meanwhile is held the same way; a failed
// inspection at the gate and a `Remolque dañado` return mark it damaged. Runs on both engines (server-pg).
import { beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Task, Trailer } from '@shared/schemas';
import { tasks } from '../../server/db/tables';
import { db, makeTask, makeUser, setupApp, type TestUser } from '../helpers/context';
import { makePlace } from '../helpers/places';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let manager: TestUser;
beforeEach(async () => {
  ({ api } = await setupApp());
  manager = await makeUser('manager');
});

const place = (code: string, name: string, kind = 'campa', capacity = 5) =>
  makePlace(api, manager, code, name, kind, capacity);

const newTask = async (fields: Record<string, unknown>): Promise<Task> => {
  const res = await api()
    .post('/api/tasks')
    .set(manager.auth)
    .send({ title: 'Mover', origin: 'Fuera', destination: 'Fuera', vehicle_type: 'swap', ...fields });
  expect(res.status, res.text).toBe(201);
  return res.body as Task;
};
const row = async (id: string) => (await db.select().from(tasks).where(eq(tasks.id, id)))[0]!;
const damage = (plate: string, note: unknown, path = 'damage') =>
  api()
    .post(`/api/trailers/${encodeURIComponent(plate)}/${path}`)
    .set(manager.auth)
    .send({ note });

describe('damage', () => {
  it('staff mark a trailer damaged: its pool task is held for it; clearing releases only that hold', async () => {
    const task = await newTask({ trailer_id: 'R-1-A' });
    const res = await damage('r1a', 'Lona rota');
    expect(res.status, res.text).toBe(200);
    expect((res.body as { trailer: Trailer }).trailer).toMatchObject({
      damaged: true,
      damage_note: 'Lona rota',
    });
    expect(await row(task.id)).toMatchObject({
      onHold: true,
      holdReason: 'Remolque con daños: Lona rota',
      holdSource: 'damage',
    });
    const cleared = await damage('R-1-A', 'Reparada', 'clear-damage');
    expect(cleared.status, cleared.text).toBe(200);
    expect((cleared.body as { trailer: Trailer }).trailer).toMatchObject({
      damaged: false,
      damage_note: null,
    });
    expect(await row(task.id)).toMatchObject({ onHold: false, holdReason: null, holdSource: null });
    const again = await damage('R-1-A', 'x', 'clear-damage');
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('El remolque R-1-A no tiene daños');
    expect((await damage('R-404', 'x', 'clear-damage')).status).toBe(404);
    expect((await damage('R-1-A', '  ')).status).toBe(400);
  });

  it('a staff hold stays a staff hold; a task to a taller is never held; a new task while damaged is held', async () => {
    const taller = await place('TALLER-1', 'Taller 1', 'taller');
    const held = await newTask({ trailer_id: 'R-1-A' });
    expect(
      (
        await api()
          .put(`/api/tasks/${held.id}`)
          .set(manager.auth)
          .send({ on_hold: true, hold_reason: 'Espera' })
      ).status,
    ).toBe(200);
    expect(await row(held.id)).toMatchObject({ holdSource: 'staff' });
    await damage('R-1-A', 'Frenos');
    expect(await row(held.id)).toMatchObject({ onHold: true, holdReason: 'Espera', holdSource: 'staff' });
    await damage('R-1-A', 'x', 'clear-damage');
    expect(await row(held.id)).toMatchObject({ onHold: true, holdReason: 'Espera', holdSource: 'staff' });

    await damage('R-2-B', 'Chasis');
    const toWorkshop = await newTask({ trailer_id: 'R-2-B', destination_location_id: taller.id });
    expect(await row(toWorkshop.id)).toMatchObject({ onHold: false });
    await api().delete(`/api/tasks/${toWorkshop.id}`).set(manager.auth);
    const created = await newTask({ trailer_id: 'R-2-B' });
    expect(created.on_hold).toBe(true);
    expect(await row(created.id)).toMatchObject({
      holdReason: 'Remolque con daños: Chasis',
      holdSource: 'damage',
    });
  });

  it('a `Remolque dañado` return marks the trailer damaged; the returned task keeps its own hold', async () => {
    const driver = await makeUser('conductor');
    const task = await makeTask({ trailerId: 'R-9-D', status: 'en_proceso', assignedTo: driver.user.id });
    const res = await api()
      .post(`/api/tasks/${task.id}/return`)
      .set(driver.auth)
      .send({ reason: 'Remolque dañado' });
    expect(res.status, res.text).toBe(200);
    expect(await row(task.id)).toMatchObject({
      onHold: true,
      holdReason: 'Remolque dañado',
      holdSource: 'staff',
    });
    const record = (await api().get('/api/trailers/R-9-D').set(manager.auth)).body as { trailer: Trailer };
    expect(record.trailer).toMatchObject({ damaged: true, damage_note: 'Remolque dañado' });
    // Clearing the damage leaves the return's hold for staff to review.
    expect((await damage('R-9-D', 'Revisado', 'clear-damage')).status).toBe(200);
    expect(await row(task.id)).toMatchObject({ onHold: true, holdReason: 'Remolque dañado' });
  });

  it('a task back in the pool of a damaged trailer (another return, a reopen) is held for the damage', async () => {
    const driver = await makeUser('conductor');
    const task = await makeTask({ trailerId: 'R-7-F', status: 'en_proceso', assignedTo: driver.user.id });
    expect((await damage('R-7-F', 'Piloto')).status).toBe(200);
    // In process: keeps its driver.
    expect(await row(task.id)).toMatchObject({ status: 'en_proceso', onHold: false });
    const back = await api().post(`/api/tasks/${task.id}/return`).set(driver.auth).send({ reason: 'Otro' });
    expect(back.status, back.text).toBe(200);
    expect(await row(task.id)).toMatchObject({
      status: 'bolsa_trabajo',
      onHold: true,
      holdReason: 'Remolque con daños: Piloto',
      holdSource: 'damage',
    });
    const done = await makeTask({ trailerId: 'R-8-G', status: 'finalizada' });
    expect((await damage('R-8-G', 'Eje')).status).toBe(200);
    const reopened = await api()
      .put(`/api/tasks/${done.id}`)
      .set(manager.auth)
      .send({ status: 'bolsa_trabajo' });
    expect(reopened.status, reopened.text).toBe(200);
    expect(reopened.body).toMatchObject({ on_hold: true, hold_reason: 'Remolque con daños: Eje' });
  });

  it('a failed inspection at the gate holds the trailer’s pool task', async () => {
    const campa = await place('CAMPA-1', 'Campa 1');
    const gestor = await makeUser('gestor');
    const task = await newTask({ trailer_id: 'R-5-E' });
    // An open task does not stop an entry: the trailer was not in the yard.
    const res = await api()
      .post('/api/gate/entries')
      .set(gestor.auth)
      .send({
        truck_plate: 'T',
        carrier: 'C',
        trailer: {
          trailer_id: 'R-5-E',
          load_state: 'vacio',
          location_id: campa.id,
          inspection: { items: [{ code: 'chasis', ok: false, note: 'Doblado' }] },
        },
      });
    expect(res.status, res.text).toBe(201);
    expect(await row(task.id)).toMatchObject({
      onHold: true,
      holdReason: 'Remolque con daños: Chasis (Doblado)',
      holdSource: 'damage',
    });
  });

  it('a task shows who held it: `hold_source` damage, staff, null once released', async () => {
    const byDamage = await newTask({ trailer_id: 'R-3-H' });
    const byStaff = await newTask({ trailer_id: 'R-4-H' });
    expect(byDamage.hold_source).toBeNull();
    expect((await damage('R-3-H', 'Puertas')).status).toBe(200);
    // The board's list presents it as the pushes do (presenters/tasks.ts).
    const get = async (id: string) => {
      const res = await api().get('/api/tasks').set(manager.auth);
      expect(res.status, res.text).toBe(200);
      return (res.body as Task[]).find((t) => t.id === id);
    };
    expect(await get(byDamage.id)).toMatchObject({
      on_hold: true,
      hold_reason: 'Remolque con daños: Puertas',
      hold_source: 'damage',
    });
    const held = await api()
      .put(`/api/tasks/${byStaff.id}`)
      .set(manager.auth)
      .send({ on_hold: true, hold_reason: 'Espera' });
    expect(held.status, held.text).toBe(200);
    expect(held.body).toMatchObject({ on_hold: true, hold_source: 'staff' });
    expect(await get(byStaff.id)).toMatchObject({ hold_source: 'staff' });
    // Staff release the damage hold (the client asked first): the source goes with it.
    const released = await api().put(`/api/tasks/${byDamage.id}`).set(manager.auth).send({ on_hold: false });
    expect(released.status, released.text).toBe(200);
    expect(released.body).toMatchObject({ on_hold: false, hold_reason: null, hold_source: null });
  });

  it('a conductor may not mark damage (403)', async () => {
    const driver = await makeUser('conductor');
    const res = await api().post('/api/trailers/R-1/damage').set(driver.auth).send({ note: 'x' });
    expect(res.status).toBe(403);
  });
});

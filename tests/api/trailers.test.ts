// Trailers (issue 27, CONTRACT §19): plate identity (one open task per trailer by plate key, race-safe),
// the record (created by the first task or position naming it, GET /trailers?q=, GET/PUT
// /trailers/{trailer_id}), where a trailer stands (its latest move or staff correction, `leave`), and the
// searcher by plate key. Runs on both engines (server-pg).
import { beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { SearchTask, Task, Trailer, TrailerDetail, YardLocation } from '@shared/schemas';
import { activityLog, tasks, trailerEvents } from '../../server/db/tables';
import { change } from '../../server/tasks/change';
import { insertTasks } from '../../server/tasks/apply';
import { db, makeTask, makeUser, setupApp, type TestUser } from '../helpers/context';
import { createMove, finishMove, makePlace } from '../helpers/places';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let manager: TestUser;
beforeEach(async () => {
  ({ api } = await setupApp());
  manager = await makeUser('manager');
});

const place = (code: string, name: string, kind = 'campa', capacity = 1) =>
  makePlace(api, manager, code, name, kind, capacity);

const create = (fields: Record<string, unknown>) => createMove(api, manager, fields);
const finish = (id: string) => finishMove(api, manager, id);

const detail = async (plate: string) => {
  const res = await api()
    .get(`/api/trailers/${encodeURIComponent(plate)}`)
    .set(manager.auth);
  return { status: res.status, body: res.body as TrailerDetail & { detail?: string } };
};
const position = (plate: string, body: Record<string, unknown>) =>
  api()
    .post(`/api/trailers/${encodeURIComponent(plate)}/position`)
    .set(manager.auth)
    .send(body);

async function yard(): Promise<Map<string, YardLocation>> {
  const res = await api().get('/api/yard').set(manager.auth);
  expect(res.status).toBe(200);
  return new Map((res.body as YardLocation[]).map((l) => [l.code, l]));
}

describe('plate identity', () => {
  it('refuses a second open task for one trailer written otherwise, also by an edit or a reopen', async () => {
    const first = await create({ trailer_id: 'R-4136-FVR' });
    expect(first.status, first.text).toBe(201);
    for (const spelling of ['r4136fvr', 'R 4136 FVR', 'R.4136.FVR']) {
      const again = await create({ trailer_id: spelling });
      expect(again.status, spelling).toBe(409);
      expect(again.body.detail).toMatch(/^El remolque .+ ya tiene una tarea abierta$/);
    }
    // A task keeps its plate as typed (upper-cased).
    const other = await create({ trailer_id: 'r-9-x' });
    expect(other.status).toBe(201);
    expect((other.body as Task).trailer_id).toBe('R-9-X');
    const renamed = await api()
      .put(`/api/tasks/${(other.body as Task).id}`)
      .set(manager.auth)
      .send({ trailer_id: 'r 4136 fvr' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.detail).toBe('El remolque R 4136 FVR ya tiene una tarea abierta');
    // A finished move of the trailer cannot be reopened while another spelling is open.
    await finish((other.body as Task).id);
    const renameDone = await api()
      .put(`/api/tasks/${(other.body as Task).id}`)
      .set(manager.auth)
      .send({ trailer_id: 'R4136FVR' });
    expect(renameDone.status, renameDone.text).toBe(200);
    const reopen = await api()
      .put(`/api/tasks/${(other.body as Task).id}`)
      .set(manager.auth)
      .send({ status: 'bolsa_trabajo' });
    expect(reopen.status).toBe(409);
    // Once the first is finished, the trailer takes a new task under any spelling.
    await finish((first.body as Task).id);
    expect((await create({ trailer_id: 'r4136fvr' })).status).toBe(201);
  });

  it('two creations racing for R-1-A and r1a: one 201, one 409', async () => {
    for (let round = 0; round < 3; round++) {
      const [a, b] = await Promise.all([
        create({ trailer_id: `R-${round}-A` }),
        create({ trailer_id: `r${round}a` }),
      ]);
      expect([a.status, b.status].sort(), `${a.text} ${b.text}`).toEqual([201, 409]);
      const { body } = await detail(`R${round}A`);
      expect(body.open_task?.id).toBe(((a.status === 201 ? a : b).body as Task).id);
    }
  });

  it('two transactions creating R-1-A and r1a side by side: the record lock lets one through', async () => {
    // Below the creation batcher (which runs one batch at a time in a process): two transactions of their
    // own, as two nodes would run them; on PostgreSQL they overlap and the second waits for the lock.
    const actor = manager.user;
    const insert = (trailerId: string) =>
      change(async (fx) => {
        await insertTasks(
          [
            {
              actor,
              task: {
                id: crypto.randomUUID(),
                title: 'Mover',
                description: null,
                origin: 'Fuera',
                destination: 'Fuera',
                originLocationId: null,
                destinationLocationId: null,
                trailerId,
                loadStateAfter: null,
                priority: 'normal',
                vehicleType: 'swap',
                createdBy: actor.id,
              },
            },
          ],
          fx,
        );
        // Hold the transaction a moment after the check, so the other one overlaps it.
        await new Promise((r) => setTimeout(r, 50));
        return fx;
      }).then(
        () => 201,
        (err: { status?: number }) => err.status ?? 500,
      );
    // The record exists already (a finished move): the insert of the record does not wait, the lock must.
    await finish(((await create({ trailer_id: 'R-1-A' })).body as Task).id);
    const outcomes = await Promise.all([insert('R-1-A'), insert('R1A')]);
    expect(outcomes.sort()).toEqual([201, 409]);
    const all = await db.select().from(tasks).where(eq(tasks.trailerKey, 'R1A'));
    expect(all.filter((t) => t.status === 'bolsa_trabajo')).toHaveLength(1);
  });

  it('two open tasks already of one trailer both stay (the Attention list shows them)', async () => {
    // Written before plates were keyed: the database's exact index lets both be.
    const a = await makeTask({ trailerId: 'R-77-B' });
    const b = await makeTask({ trailerId: 'R77B' });
    const board = await api().get('/api/tasks').set(manager.auth);
    const ids = (board.body as Task[]).map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
    expect((await create({ trailer_id: 'r-77-b' })).status).toBe(409);
  });
});

describe('the record', () => {
  it('is created by the first task naming the trailer, keeping its first spelling; read by any spelling', async () => {
    const muelle = await place('MU-1', 'Muelle 1', 'muelle', 2);
    const t1 = (await create({ trailer_id: 'R-4136-FVR', destination: 'Muelle 1' })).body as Task;
    let got = await detail('r4136fvr');
    expect(got.status).toBe(200);
    expect(got.body.trailer).toMatchObject({
      trailer_id: 'R-4136-FVR',
      kind: 'otro',
      load_state: 'desconocido',
      adr: false,
      damaged: false,
      in_yard: false,
      location: null,
      since: null,
      version: 1,
    } satisfies Partial<Trailer>);
    expect(got.body.open_task?.id).toBe(t1.id);
    expect(got.body.moves).toEqual([]);
    expect(got.body.visits).toEqual([]);

    await finish(t1.id);
    const t2 = (await create({ trailer_id: 'R 4136 FVR', origin: 'Muelle 1' })).body as Task;
    await finish(t2.id); // to free text: out of the yard
    got = await detail('R-4136-FVR');
    expect(got.body.trailer.trailer_id).toBe('R-4136-FVR');
    expect(got.body.moves.map((m) => m.id)).toEqual([t2.id, t1.id]);
    expect(got.body.open_task).toBeNull();
    expect(got.body.trailer).toMatchObject({ in_yard: false, location: null });
    void muelle;

    const unknown = await detail('NO-EXISTE-1');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe('Remolque no encontrado');
  });

  it('GET /trailers?q= finds records whose key starts with or contains the text, starts-with first', async () => {
    for (const plate of ['X-4136-AB', 'R-4136-FVR', '4136-ZZ', 'Q-1111-A'])
      expect((await create({ trailer_id: plate })).status).toBe(201);
    const res = await api().get('/api/trailers').query({ q: '41-36' }).set(manager.auth);
    expect(res.status).toBe(200);
    expect((res.body as { trailers: Trailer[] }).trailers.map((t) => t.trailer_id)).toEqual([
      '4136-ZZ',
      'R-4136-FVR',
      'X-4136-AB',
    ]);
    const all = await api().get('/api/trailers').set(manager.auth);
    expect((all.body as { trailers: Trailer[] }).trailers).toHaveLength(4);
    const driver = await makeUser('conductor');
    expect((await api().get('/api/trailers').set(driver.auth)).status).toBe(403);
  });

  it('PUT edits the record over its version: 400 without it, 409 when stale, logged and versioned', async () => {
    await create({ trailer_id: 'R-5-E' });
    const url = '/api/trailers/r5e';
    const without = await api().put(url).set(manager.auth).send({ kind: 'lona' });
    expect(without.status).toBe(400);
    const bad = await api().put(url).set(manager.auth).send({ version: 1, reefer_setpoint_c: 41 });
    expect(bad.status).toBe(400);
    const tooLong = await api()
      .put(url)
      .set(manager.auth)
      .send({ version: 1, seal: 'S'.repeat(121) });
    expect(tooLong.status).toBe(400);
    const ok = await api().put(url).set(manager.auth).send({
      version: 1,
      kind: 'frigorifico',
      load_state: 'cargado',
      carrier: '  Transportes Ruiz ',
      seal: 'PR-001',
      adr: true,
      reefer_setpoint_c: -18.5,
      notes: 'Puerta trasera dura',
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.trailer).toMatchObject({
      trailer_id: 'R-5-E',
      kind: 'frigorifico',
      load_state: 'cargado',
      carrier: 'Transportes Ruiz',
      seal: 'PR-001',
      adr: true,
      reefer_setpoint_c: -18.5,
      notes: 'Puerta trasera dura',
      version: 2,
    });
    const stale = await api().put(url).set(manager.auth).send({ version: 1, kind: 'lona' });
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toBe(
      'El remolque ha cambiado mientras lo editabas; revisa los datos y vuelve a intentarlo',
    );
    const cleared = await api()
      .put(url)
      .set(manager.auth)
      .send({ version: 2, seal: '', reefer_setpoint_c: null });
    expect(cleared.body.trailer).toMatchObject({ seal: null, reefer_setpoint_c: null, version: 3 });
    const logs = await db.select().from(activityLog).where(eq(activityLog.action, 'Editar remolque'));
    expect(logs.map((l) => l.details)).toContain(
      'R-5-E: Tipo, Estado de carga, Transportista, Precinto, ADR, Consigna, Notas',
    );
    expect((await detail('R-5-E')).body.trailer.version).toBe(3);
  });
});

describe('load_state_after', () => {
  it('a completed move leaves its trailer in the load state it names', async () => {
    const bad = await create({ trailer_id: 'R-6-L', load_state_after: 'lleno' });
    expect(bad.status).toBe(400);
    const t = await create({ trailer_id: 'R-6-L', load_state_after: 'cargado' });
    expect(t.status, t.text).toBe(201);
    expect((t.body as Task).load_state_after).toBe('cargado');
    expect((await detail('R6L')).body.trailer).toMatchObject({ load_state: 'desconocido', version: 1 });
    await finish((t.body as Task).id);
    expect((await detail('R6L')).body.trailer).toMatchObject({ load_state: 'cargado', version: 2 });

    // Set by an edit; a move naming none leaves the record as it is.
    const next = (await create({ trailer_id: 'r6l' })).body as Task;
    expect(next.load_state_after).toBeNull();
    const edited = await api()
      .put(`/api/tasks/${next.id}`)
      .set(manager.auth)
      .send({ load_state_after: 'vacio' });
    expect(edited.status).toBe(200);
    expect(edited.body.load_state_after).toBe('vacio');
    await finish(next.id);
    expect((await detail('R6L')).body.trailer.load_state).toBe('vacio');
    const plain = (await create({ trailer_id: 'R6L' })).body as Task;
    await finish(plain.id);
    expect((await detail('R6L')).body.trailer.load_state).toBe('vacio');
  });
});

describe('where a trailer stands', () => {
  it('a staff correction puts it at a place until a later move; refusals as the gate', async () => {
    const a = await place('CA-1', 'Campa A-1', 'campa', 1);
    const b = await place('CA-2', 'Campa A-2', 'campa', 1);
    const gate = await place('PU-1', 'Puerta 1', 'puerta', 1);
    const off = await place('CA-9', 'Campa A-9', 'campa', 1);
    await api().delete(`/api/admin/locations/${off.id}`).set(manager.auth);

    const unknown = await position('R-8-C', { location_id: off.id });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toBe('Ubicación desconocida');
    const missing = await position('R-8-C', { location_id: crypto.randomUUID() });
    expect(missing.body.detail).toBe('Ubicación desconocida');
    const atGate = await position('R-8-C', { location_id: gate.id });
    expect(atGate.status).toBe(400);
    expect(atGate.body.detail).toBe('Un remolque no puede quedarse en una puerta');
    expect((await detail('R-8-C')).status).toBe(404); // nothing was written

    // The first position names the trailer: its record is created with that spelling.
    const placed = await position('r-8-c', { location_id: a.id, note: 'Revisión de patio' });
    expect(placed.status, placed.text).toBe(200);
    expect(placed.body.trailer).toMatchObject({
      trailer_id: 'R-8-C',
      in_yard: true,
      location: { id: a.id, code: 'CA-1', name: 'Campa A-1' },
    });
    expect((await yard()).get('CA-1')).toMatchObject({ trailers: [{ trailer_id: 'R-8-C' }], free: 0 });
    const [event] = await db.select().from(trailerEvents).where(eq(trailerEvents.trailerKey, 'R8C'));
    expect(event).toMatchObject({ kind: 'correction', locationId: a.id, note: 'Revisión de patio' });
    const logs = await db
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'Corregir ubicación de remolque'));
    expect(logs.map((l) => l.details)).toEqual(['R-8-C → Campa A-1 · Revisión de patio']);

    // A full place refuses another trailer.
    const full = await position('R-9-C', { location_id: a.id });
    expect(full.status).toBe(409);
    expect(full.body.detail).toBe('La ubicación Campa A-1 está completa');

    // A move completed after the correction wins; a correction after the move wins again.
    const move = (await create({ trailer_id: 'R8C', origin: 'Campa A-1', destination: 'Campa A-2' }))
      .body as Task;
    await finish(move.id);
    expect((await detail('R-8-C')).body.trailer.location?.id).toBe(b.id);
    expect((await position('R-8-C', { location_id: a.id })).status).toBe(200);
    const now = await yard();
    expect(now.get('CA-1')!.trailers.map((t) => t.trailer_id)).toEqual(['R-8-C']);
    expect(now.get('CA-2')!.trailers).toEqual([]);
    // Reopening that move leaves it where the later correction put it.
    const reopened = await api()
      .put(`/api/tasks/${move.id}`)
      .set(manager.auth)
      .send({ status: 'bolsa_trabajo' });
    expect(reopened.status).toBe(200);
    expect((await detail('R-8-C')).body.trailer.location?.id).toBe(a.id);

    // `leave` by another spelling; then the record says it is out.
    await api().delete(`/api/tasks/${move.id}`).set(manager.auth);
    const left = await api().post('/api/yard/trailers/r8c/leave').set(manager.auth);
    expect(left.status, left.text).toBe(200);
    expect((await detail('R-8-C')).body.trailer).toMatchObject({
      in_yard: false,
      location: null,
      since: null,
    });
  });
});

describe('the searcher by plate key', () => {
  it('finds a plate written otherwise in trailer and all modes, with where it stands', async () => {
    await place('MU-2', 'Muelle 2', 'muelle', 2);
    const t = (await create({ trailer_id: 'R-4136-FVR', destination: 'Muelle 2' })).body as Task;
    await finish(t.id);
    for (const search_type of ['trailer', 'all'])
      for (const query of ['r4136', '4136 FVR', '41-36-f']) {
        const res = await api()
          .get('/api/admin/search/tasks')
          .query({ search_type, query })
          .set(manager.auth);
        expect(res.status).toBe(200);
        const found = res.body as SearchTask[];
        expect(
          found.map((f) => f.id),
          `${search_type} ${query}`,
        ).toEqual([t.id]);
        expect(found[0]!.trailer_last_location).toBe('Muelle 2');
      }
    const none = await api()
      .get('/api/admin/search/tasks')
      .query({ search_type: 'trailer', query: '4137' })
      .set(manager.auth);
    expect(none.body).toEqual([]);
  });
});

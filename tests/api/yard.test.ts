// The yard (issue 18, CONTRACT §17): the location catalogue and its CSV import, tasks mapped to it,
// occupancy (capacity, incoming reservations, trailers booked to leave, gates, staff's `leave`), the 409 of
// a full place, GET /yard, GET /yard/trailers and its Excel export. Runs on both engines (server-pg).
import { beforeEach, describe, expect, it } from 'vitest';
import type { Location, Task, YardLocation, YardTrailer } from '@shared/schemas';
import { eq } from 'drizzle-orm';
import { locations, tasks, trailers } from '../../server/db/tables';
import { fetchWorkbook, sheetTable } from '../helpers/excel';
import { db, makeTask, makeUser, setupApp, type TestUser } from '../helpers/context';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let manager: TestUser;
beforeEach(async () => {
  ({ api } = await setupApp());
  manager = await makeUser('manager');
});

type PlaceInput = {
  code: string;
  name: string;
  kind?: string;
  zone?: string;
  capacity?: number;
  x?: number;
  y?: number;
};
async function place(input: PlaceInput, who: TestUser = manager): Promise<Location> {
  const res = await api()
    .post('/api/admin/locations')
    .set(who.auth)
    .send({ kind: 'campa', zone: 'Campa A', x: 0, y: 0, ...input });
  expect(res.status, res.text).toBe(201);
  return res.body as Location;
}

async function newTask(
  fields: Record<string, unknown>,
): Promise<{ status: number; body: Task & { detail?: string } }> {
  const res = await api()
    .post('/api/tasks')
    .set(manager.auth)
    .send({ title: 'Mover', priority: 'normal', vehicle_type: 'swap', ...fields });
  return { status: res.status, body: res.body as Task & { detail?: string } };
}

/** Staff drag the task straight to Finalizada: the trailer now stands at its destination. */
async function finish(id: string): Promise<void> {
  const res = await api().put(`/api/tasks/${id}`).set(manager.auth).send({ status: 'finalizada' });
  expect(res.status, res.text).toBe(200);
}

async function yard(): Promise<Map<string, YardLocation>> {
  const res = await api().get('/api/yard').set(manager.auth);
  expect(res.status).toBe(200);
  return new Map((res.body as YardLocation[]).map((l) => [l.code, l]));
}

describe('the location catalogue', () => {
  it('creates places with an upper-case code, refuses a taken code or active name, and lists them for anyone', async () => {
    const created = await place({ code: 'muelle-1', name: 'Muelle 1', kind: 'muelle', zone: 'Muelles', capacity: 1, x: 3, y: 0 });
    expect(created).toMatchObject({ code: 'MUELLE-1', name: 'Muelle 1', kind: 'muelle', capacity: 1, x: 3, active: true });

    const sameCode = await api().post('/api/admin/locations').set(manager.auth)
      .send({ code: 'MUELLE-1', name: 'Otro', kind: 'muelle', zone: 'Muelles', x: 0, y: 0 });
    expect(sameCode.status).toBe(409);
    expect(sameCode.body.detail).toBe('Ya existe una ubicación con el código MUELLE-1');
    const sameName = await api().post('/api/admin/locations').set(manager.auth)
      .send({ code: 'M-1', name: 'MUELLE 1', kind: 'muelle', zone: 'Muelles', x: 0, y: 0 });
    expect(sameName.status).toBe(409);
    expect(sameName.body.detail).toBe('Ya existe una ubicación activa llamada MUELLE 1');

    const driver = await makeUser('conductor');
    const list = await api().get('/api/locations').set(driver.auth);
    expect(list.status).toBe(200);
    expect((list.body as Location[]).map((l) => l.code)).toEqual(['MUELLE-1']);
  }); // prettier-ignore

  it('answers bad input with a Spanish 400, and only admins and managers edit it', async () => {
    const bad = await api().post('/api/admin/locations').set(manager.auth)
      .send({ code: 'A B', name: 'X', kind: 'campa', zone: 'Z', x: 0, y: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('El código admite letras sin tilde');
    const noCapacity = await api().post('/api/admin/locations').set(manager.auth)
      .send({ code: 'A1', name: 'A1', kind: 'campa', zone: 'Z', capacity: 0, x: 0, y: 0 });
    expect(noCapacity.status).toBe(400);
    expect(noCapacity.body.detail).toContain('La capacidad debe ser un número entero entre 1 y 500');
    const kind = await api().post('/api/admin/locations').set(manager.auth)
      .send({ code: 'A1', name: 'A1', kind: 'almacén', zone: 'Z', x: 0, y: 0 });
    expect(kind.status).toBe(400);
    expect(kind.body.detail).toContain('Tipo de ubicación no válido');

    const gestor = await makeUser('gestor');
    const refused = await api().post('/api/admin/locations').set(gestor.auth)
      .send({ code: 'A1', name: 'A1', kind: 'campa', zone: 'Z', x: 0, y: 0 });
    expect(refused.status).toBe(403);
    const admin = await makeUser('admin');
    await place({ code: 'A1', name: 'A1' }, admin);
    expect(await db.select().from(locations)).toHaveLength(1);
  }); // prettier-ignore

  it('edits and deactivates a place, refuses to deactivate one in use, and brings it back', async () => {
    const dock = await place({ code: 'MUELLE-2', name: 'Muelle 2', kind: 'muelle', zone: 'Muelles' });
    const edited = await api().put(`/api/admin/locations/${dock.id}`).set(manager.auth).send({ capacity: 2, x: 7 });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ capacity: 2, x: 7, name: 'Muelle 2' });

    const task = await newTask({ origin: 'Puerta', destination: 'Muelle 2', trailer_id: 'R-1000-AAA' });
    expect(task.status).toBe(201);
    const inUse = await api().delete(`/api/admin/locations/${dock.id}`).set(manager.auth);
    expect(inUse.status).toBe(409);
    expect(inUse.body.detail).toBe('La ubicación Muelle 2 tiene remolques o movimientos pendientes; vacíala antes');

    await api().delete(`/api/tasks/${task.body.id}`).set(manager.auth).expect(200);
    const gone = await api().delete(`/api/admin/locations/${dock.id}`).set(manager.auth);
    expect(gone.status).toBe(200);
    expect(gone.body.message).toBe('Ubicación desactivada');
    expect((await yard()).has('MUELLE-2')).toBe(false);
    // A deactivated place matches no text any more.
    const free = await newTask({ origin: 'Puerta', destination: 'Muelle 2', trailer_id: 'R-1001-AAA' });
    expect(free.body.destination_location_id).toBeNull();

    const back = await api().put(`/api/admin/locations/${dock.id}`).set(manager.auth).send({ active: true });
    expect(back.body).toMatchObject({ active: true });
    const missing = await api().put('/api/admin/locations/00000000-0000-4000-8000-000000000000').set(manager.auth).send({ x: 1 });
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('Ubicación no encontrada');
  }); // prettier-ignore
});

describe('the CSV import', () => {
  const header = 'code,name,kind,zone,capacity,x,y';

  it('creates and updates by code, comma or semicolon separated', async () => {
    await place({ code: 'CAMPA-A-1', name: 'Campa A-1', capacity: 1 });
    const res = await api().post('/api/admin/locations/import').set(manager.auth).send({
      csv: [header, 'CAMPA-A-1,Campa A-1,campa,Campa A,2,0,0', '"LAV","Lavadero, box 1",lavadero,Servicios,,5,5', ''].join('\r\n'),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ created: 1, updated: 1 });
    expect(res.body.message).toBe('Importación completada: 1 ubicación nueva, 1 actualizada');
    const rows = await db.select().from(locations);
    expect(rows.map((r) => [r.code, r.name, r.capacity]).sort()).toEqual([
      ['CAMPA-A-1', 'Campa A-1', 2],
      ['LAV', 'Lavadero, box 1', 1],
    ]);

    const semicolons = await api().post('/api/admin/locations/import').set(manager.auth)
      .send({ csv: 'code;name;kind;zone;capacity;x;y\nBASCULA;Báscula;bascula;Servicios;1;9;9\n' });
    expect(semicolons.status, semicolons.text).toBe(200);
    expect(await db.select().from(locations)).toHaveLength(3);
  }); // prettier-ignore

  it("takes a whole yard's catalogue in one file, larger than other requests may be", async () => {
    const lines = Array.from(
      { length: 2500 },
      (_, i) => `CAMPA-Z-${i + 1},Campa Z-${i + 1} (fila larga del fondo del patio),campa,Campa Z,1,${i % 200},${Math.floor(i / 200)}`,
    );
    const csv = [header, ...lines].join('\n');
    expect(csv.length).toBeGreaterThan(100_000);
    const res = await api().post('/api/admin/locations/import').set(manager.auth).send({ csv });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ created: 2500, updated: 0 });
    expect(await db.select().from(locations)).toHaveLength(2500);
  }); // prettier-ignore

  it('a bad line rejects the whole file, naming every bad line by its number (the header is line 1)', async () => {
    const res = await api().post('/api/admin/locations/import').set(manager.auth).send({
      csv: [
        header,
        'OK-1,Sitio 1,campa,Campa A,1,0,0',
        'MAL-1,Sitio 2,almacen,Campa A,1,0,0',
        'OK-2,Sitio 3,campa,Campa A,uno,0,0',
        'OK-1,Sitio 4,campa,Campa A,1,0,0',
        'CORTA,Sitio 5,campa',
      ].join('\n'),
    });
    expect(res.status).toBe(400);
    const detail = res.body.detail as string;
    expect(detail).toMatch(/^No se ha importado nada\./);
    expect(detail).toContain('Línea 3: kind: Tipo de ubicación no válido');
    expect(detail).toContain('Línea 4: capacity: La capacidad debe ser un número entero entre 1 y 500');
    expect(detail).toContain('Línea 5: el código OK-1 ya aparece en la línea 2');
    expect(detail).toContain('Línea 6: tiene 3 columnas y deben ser 7');
    expect(detail).not.toContain('Línea 2');
    expect(await db.select().from(locations)).toHaveLength(0);

    const wrongHeader = await api().post('/api/admin/locations/import').set(manager.auth).send({ csv: 'codigo,nombre\nA,B' });
    expect(wrongHeader.status).toBe(400);
    expect(wrongHeader.body.detail).toBe('La primera línea debe ser la cabecera code,name,kind,zone,capacity,x,y');
    const taken = await place({ code: 'X-1', name: 'Taller' });
    const clash = await api().post('/api/admin/locations/import').set(manager.auth)
      .send({ csv: `${header}\nX-2,taller,taller,Servicios,1,0,0` });
    expect(clash.status).toBe(400);
    expect(clash.body.detail).toContain(`Línea 2: Ya existe una ubicación activa llamada ${taken.name}`);
    expect(await db.select().from(locations)).toHaveLength(1);
  }); // prettier-ignore
});

describe('tasks and the catalogue', () => {
  it('maps texts equal to a name or code (accents and case aside); free text stays unmapped', async () => {
    const scale = await place({ code: 'BASCULA', name: 'Báscula', kind: 'bascula', zone: 'Servicios' });
    const dock = await place({ code: 'MUELLE-3', name: 'Muelle 3', kind: 'muelle', zone: 'Muelles' });
    const t = await newTask({ origin: 'bascula', destination: 'muelle-3', trailer_id: 'R-2000-AAA' });
    expect(t.status).toBe(201);
    expect(t.body).toMatchObject({ origin_location_id: scale.id, destination_location_id: dock.id });
    const free = await newTask({ origin: 'Calle de atrás', destination: 'Muelle 33', trailer_id: 'R-2001-AAA' });
    expect(free.body).toMatchObject({ origin_location_id: null, destination_location_id: null });

    const unknown = await newTask({
      origin: 'X', destination: 'Y', trailer_id: 'R-2002-AAA', destination_location_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toBe('La ubicación indicada no existe o está desactivada');
  }); // prettier-ignore

  it('an edit places again only the side it changes; a picked place names the text', async () => {
    const gone = await place({ code: 'TALLER', name: 'Taller', kind: 'taller', zone: 'Servicios', capacity: 2 });
    const wash = await place({ code: 'LAV', name: 'Lavadero', kind: 'lavadero', zone: 'Servicios', capacity: 2 });
    const t = await newTask({ origin: 'taller', destination: 'Calle Mayor', trailer_id: 'R-2100-AAA' });
    expect(t.body).toMatchObject({ origin_location_id: gone.id, destination_location_id: null });
    // The origin's place deactivated since (nothing stands there, nothing heads there).
    await api().delete(`/api/admin/locations/${gone.id}`).set(manager.auth).expect(200);
    const aimed = await api().put(`/api/tasks/${t.body.id}`).set(manager.auth).send({ destination_location_id: wash.id });
    expect(aimed.status, aimed.text).toBe(200);
    expect(aimed.body).toMatchObject({ origin_location_id: gone.id, destination: 'Lavadero', destination_location_id: wash.id });
    const free = await api().put(`/api/tasks/${t.body.id}`).set(manager.auth).send({ destination: 'Lavadero', destination_location_id: null });
    expect(free.body).toMatchObject({ destination: 'Lavadero', destination_location_id: null, origin_location_id: gone.id });
  }); // prettier-ignore

  it('maps existing tasks when the catalogue changes, and settles where their trailers stand', async () => {
    const old = await makeTask({ origin: 'Campa Z-1', destination: 'Lavadero', trailerId: 'R-3000-AAA', status: 'finalizada' });
    expect((await yard()).size).toBe(0);
    const wash = await place({ code: 'LAV', name: 'Lavadero', kind: 'lavadero', zone: 'Servicios', capacity: 3 });
    const [row] = await db.select().from(tasks).where(eq(tasks.id, old.id));
    expect(row!.destinationLocationId).toBe(wash.id);
    expect(row!.originLocationId).toBeNull();
    const map = await yard();
    expect(map.get('LAV')!.trailers.map((t) => t.trailer_id)).toEqual(['R-3000-AAA']);
    expect(map.get('LAV')!.free).toBe(2);
  }); // prettier-ignore
});

describe('occupancy', () => {
  it('a full place refuses a new task and a destination change (409 naming it)', async () => {
    await place({ code: 'M-5', name: 'Muelle 5', kind: 'muelle', zone: 'Muelles', capacity: 1 });
    await place({ code: 'M-6', name: 'Muelle 6', kind: 'muelle', zone: 'Muelles', capacity: 1 });
    const first = await newTask({ origin: 'Puerta', destination: 'Muelle 5', trailer_id: 'R-4000-AAA' });
    expect(first.status).toBe(201);
    const second = await newTask({ origin: 'Puerta', destination: 'muelle 5', trailer_id: 'R-4001-AAA' });
    expect(second.status).toBe(409);
    expect(second.body.detail).toBe('La ubicación Muelle 5 está completa');

    const other = await newTask({ origin: 'Puerta', destination: 'Muelle 6', trailer_id: 'R-4001-AAA' });
    expect(other.status).toBe(201);
    const aimed = await api().put(`/api/tasks/${other.body.id}`).set(manager.auth).send({ destination: 'Muelle 5' });
    expect(aimed.status).toBe(409);
    expect(aimed.body.detail).toBe('La ubicación Muelle 5 está completa');
    // The task itself does not count against its own destination when it is edited.
    const same = await api().put(`/api/tasks/${first.body.id}`).set(manager.auth).send({ destination: 'MUELLE 5', description: 'x' });
    expect(same.status).toBe(200);
  }); // prettier-ignore

  it('a completed move takes the trailer there and frees its origin; a trailer booked to leave does not block', async () => {
    const a = await place({ code: 'CA-1', name: 'Campa A-1', capacity: 1 });
    const b = await place({ code: 'CB-1', name: 'Campa B-1', capacity: 1 });
    await place({ code: 'PUERTA', name: 'Puerta', kind: 'puerta', zone: 'Accesos' });

    const arrive = await newTask({ origin: 'Puerta', destination: 'Campa A-1', trailer_id: 'R-5000-AAA' });
    let map = await yard();
    expect(map.get('CA-1')).toMatchObject({ trailers: [], incoming: [{ task_id: arrive.body.id, trailer_id: 'R-5000-AAA' }], free: 0 });
    expect(map.get('PUERTA')!.free).toBeNull();
    await finish(arrive.body.id);
    map = await yard();
    expect(map.get('CA-1')).toMatchObject({ incoming: [], free: 0 });
    expect(map.get('CA-1')!.trailers).toMatchObject([{ trailer_id: 'R-5000-AAA', open_task: null }]);
    expect((await newTask({ origin: 'Puerta', destination: 'Campa A-1', trailer_id: 'R-5001-AAA' })).status).toBe(409);

    // Booked to leave: its own task frees its slot for another trailer.
    const move = await newTask({ origin: 'Campa A-1', destination: 'Campa B-1', trailer_id: 'R-5000-AAA' });
    expect(move.body).toMatchObject({ origin_location_id: a.id, destination_location_id: b.id });
    map = await yard();
    expect(map.get('CA-1')!.trailers[0]!.open_task).toMatchObject({ id: move.body.id, destination: 'Campa B-1', on_hold: false, hold_reason: null });
    expect(map.get('CA-1')!.free).toBe(1);
    // Held, it still books the trailer to leave; the map says why it waits.
    expect((await api().put(`/api/tasks/${move.body.id}`).set(manager.auth).send({ on_hold: true, hold_reason: 'Falta el CMR' })).status).toBe(200);
    map = await yard();
    expect(map.get('CA-1')!.trailers[0]!.open_task).toMatchObject({ on_hold: true, hold_reason: 'Falta el CMR' });
    expect(map.get('CA-1')!.free).toBe(1);
    expect((await api().put(`/api/tasks/${move.body.id}`).set(manager.auth).send({ on_hold: false })).status).toBe(200);
    const next = await newTask({ origin: 'Puerta', destination: 'Campa A-1', trailer_id: 'R-5001-AAA' });
    expect(next.status).toBe(201);

    await finish(move.body.id);
    map = await yard();
    expect(map.get('CA-1')!.trailers).toEqual([]);
    expect(map.get('CB-1')!.trailers.map((t) => t.trailer_id)).toEqual(['R-5000-AAA']);

    // Out through the gate: no longer in the yard.
    const out = await newTask({ origin: 'Campa B-1', destination: 'Puerta', trailer_id: 'R-5000-AAA' });
    await finish(out.body.id);
    map = await yard();
    expect(map.get('CB-1')!.trailers).toEqual([]);
    const trailers = await api().get('/api/yard/trailers').set(manager.auth);
    expect((trailers.body as YardTrailer[]).map((t) => t.trailer_id)).toEqual([]);
  }); // prettier-ignore

  it('reopening or deleting a finished move puts the trailer back where it was', async () => {
    await place({ code: 'CA-1', name: 'Campa A-1', capacity: 2 });
    await place({ code: 'CB-1', name: 'Campa B-1', capacity: 2 });
    const first = await newTask({ origin: 'Fuera', destination: 'Campa A-1', trailer_id: 'R-6000-AAA' });
    await finish(first.body.id);
    const second = await newTask({ origin: 'Campa A-1', destination: 'Campa B-1', trailer_id: 'R-6000-AAA' });
    await finish(second.body.id);
    expect((await yard()).get('CB-1')!.trailers).toHaveLength(1);

    const reopened = await api().put(`/api/tasks/${second.body.id}`).set(manager.auth).send({ status: 'bolsa_trabajo' });
    expect(reopened.status).toBe(200);
    let map = await yard();
    expect(map.get('CB-1')!.trailers).toEqual([]);
    expect(map.get('CB-1')!.incoming).toHaveLength(1);
    expect(map.get('CA-1')!.trailers.map((t) => t.trailer_id)).toEqual(['R-6000-AAA']);

    await finish(second.body.id);
    await api().delete(`/api/tasks/${second.body.id}`).set(manager.auth).expect(200);
    map = await yard();
    expect(map.get('CB-1')!.trailers).toEqual([]);
    expect(map.get('CA-1')!.trailers.map((t) => t.trailer_id)).toEqual(['R-6000-AAA']);
  }); // prettier-ignore

  it('staff mark a trailer gone; one with an open task, or not in the yard, is refused', async () => {
    await place({ code: 'CA-1', name: 'Campa A-1', capacity: 1 });
    const arrive = await newTask({ origin: 'Fuera', destination: 'Campa A-1', trailer_id: 'R-7000-AAA' });
    await finish(arrive.body.id);
    const pending = await newTask({ origin: 'Campa A-1', destination: 'Fuera', trailer_id: 'R-7000-AAA' });
    const busy = await api().post('/api/yard/trailers/r-7000-aaa/leave').set(manager.auth);
    expect(busy.status).toBe(409);
    expect(busy.body.detail).toBe('El remolque R-7000-AAA tiene una tarea abierta; finalízala o elimínala antes de darle salida');
    await api().delete(`/api/tasks/${pending.body.id}`).set(manager.auth).expect(200);

    const driver = await makeUser('conductor');
    expect((await api().post('/api/yard/trailers/R-7000-AAA/leave').set(driver.auth)).status).toBe(403);
    const left = await api().post('/api/yard/trailers/R-7000-AAA/leave').set(manager.auth);
    expect(left.status).toBe(200);
    expect(left.body.message).toBe('El remolque R-7000-AAA ha salido del patio');
    expect((await yard()).get('CA-1')).toMatchObject({ trailers: [], free: 1 });
    const [position] = await db.select().from(trailers).where(eq(trailers.trailerKey, 'R7000AAA'));
    expect(position).toMatchObject({ locationId: null, since: null });
    expect(position!.placedAt).toBeInstanceOf(Date);

    const again = await api().post('/api/yard/trailers/R-7000-AAA/leave').set(manager.auth);
    expect(again.status).toBe(404);
    expect(again.body.detail).toBe('El remolque R-7000-AAA no está en el patio');
    // Its next completed move brings it back.
    const back = await newTask({ origin: 'Fuera', destination: 'Campa A-1', trailer_id: 'R-7000-AAA' });
    await finish(back.body.id);
    expect((await yard()).get('CA-1')!.trailers.map((t) => t.trailer_id)).toEqual(['R-7000-AAA']);
  }); // prettier-ignore

  it('two tasks racing for the last slot: exactly one gets it', async () => {
    await place({ code: 'SW-1', name: 'Zona Swap 1', kind: 'zona_swap', zone: 'Swap', capacity: 1 });
    const results = await Promise.all(
      ['R-8000-AAA', 'R-8001-AAA', 'R-8002-AAA', 'R-8003-AAA'].map((trailer) =>
        newTask({ origin: 'Fuera', destination: 'Zona Swap 1', trailer_id: trailer }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const incoming = await db.select().from(tasks).where(eq(tasks.destination, 'Zona Swap 1'));
    expect(incoming).toHaveLength(1);

    // Edits run in transactions of their own, side by side on PostgreSQL: the place's lock decides.
    await place({ code: 'SW-2', name: 'Zona Swap 2', kind: 'zona_swap', zone: 'Swap', capacity: 1 });
    const racers = await Promise.all(
      ['R-8010-AAA', 'R-8011-AAA', 'R-8012-AAA'].map((trailer) =>
        newTask({ origin: 'Fuera', destination: 'Calle', trailer_id: trailer }),
      ),
    );
    const edits = await Promise.all(
      racers.map((r) =>
        api().put(`/api/tasks/${r.body.id}`).set(manager.auth).send({ destination: 'Zona Swap 2' }),
      ),
    );
    expect(edits.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await db.select().from(tasks).where(eq(tasks.destination, 'Zona Swap 2'))).toHaveLength(1);
  });
});

describe('what staff read', () => {
  it('GET /yard is shared and revalidated: 304 for the same version, a new one after any change', async () => {
    const place1 = await place({ code: 'CA-1', name: 'Campa A-1', capacity: 2 });
    const first = await api().get('/api/yard').set(manager.auth);
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = first.headers.etag as string;
    const again = await api().get('/api/yard').set(manager.auth).set('If-None-Match', etag);
    expect(again.status).toBe(304);

    // A task heading there, its completion, a trailer marked gone, a catalogue edit: each a new version.
    const seen = new Set([etag]);
    const changed = async () => {
      const res = await api()
        .get('/api/yard')
        .set(manager.auth)
        .set('If-None-Match', [...seen].at(-1)!);
      expect(res.status).toBe(200);
      expect(seen.has(res.headers.etag as string)).toBe(false);
      seen.add(res.headers.etag as string);
      return new Map((res.body as YardLocation[]).map((l) => [l.code, l]));
    };
    const task = await newTask({ origin: 'Fuera', destination: 'Campa A-1', trailer_id: 'R-9100-AAA' });
    expect((await changed()).get('CA-1')!.incoming).toHaveLength(1);
    await finish(task.body.id);
    expect((await changed()).get('CA-1')!.trailers).toHaveLength(1);
    await api().post('/api/yard/trailers/R-9100-AAA/leave').set(manager.auth).expect(200);
    expect((await changed()).get('CA-1')!.trailers).toHaveLength(0);
    await api().put(`/api/admin/locations/${place1.id}`).set(manager.auth).send({ capacity: 5 }).expect(200);
    expect((await changed()).get('CA-1')!.free).toBe(5);
  });

  it('GET /yard/trailers lists trailers with their place and open task, exported to Excel; staff only', async () => {
    await place({ code: 'CA-1', name: 'Campa A-1', capacity: 1 });
    const arrive = await newTask({ origin: 'Fuera', destination: 'Campa A-1', trailer_id: 'R-9000-AAA' });
    await finish(arrive.body.id);
    const res = await api().get('/api/yard/trailers').set(manager.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject([
      { trailer_id: 'R-9000-AAA', location: { code: 'CA-1', name: 'Campa A-1', zone: 'Campa A' }, open_task: null },
    ]);

    const { res: xlsx, wb } = await fetchWorkbook(api().get('/api/yard/trailers/export-excel').set(manager.auth));
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers['content-disposition']).toMatch(/attachment; filename="remolques_en_patio_\d{4}-\d{2}-\d{2}\.xlsx"/);
    const { header, rows } = sheetTable(wb!.getWorksheet('Remolques en patio')!);
    expect(header).toContain('Horas en la ubicación');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.slice(0, 4)).toEqual(['R-9000-AAA', 'Campa A', 'Campa A-1', 'CA-1']);
    // CONTRACT §19: the trailer's marks close the row (kind, load state, ADR, reefer setpoint, damage).
    expect(header.slice(-5)).toEqual(['Tipo de remolque', 'Estado de carga', 'ADR', 'Consigna frigorífico (°C)', 'Con daños']);
    expect(rows[0]!.slice(9, 11)).toEqual(['Otro', 'Desconocido']);

    const driver = await makeUser('conductor');
    expect((await api().get('/api/yard').set(driver.auth)).status).toBe(403);
    expect((await api().get('/api/yard/trailers').set(driver.auth)).status).toBe(403);
    expect((await api().get('/api/yard/trailers/export-excel').set(driver.auth)).status).toBe(403);
  }); // prettier-ignore
});

// The gate (issue 27, CONTRACT §19 "Gate visits", §24): entries (the trailer placed at once, its record
// filled, every refusal with its text, the inspection's damage and photos), exits (from wherever the
// trailer stands, the pending move, the trailer picked at a gate, the seal compared), the visits and their
// clocks, the suggestions, the trailer's visits, and the races. Runs on both engines (server-pg).
import { beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import type {
  GateEntryResult,
  GateSuggestion,
  GateVisit,
  Task,
  TrailerDetail,
  YardLocation,
} from '@shared/schemas';
import { GATE_ERR, GATE_PHOTO_ERR } from '@shared/labels';
import { activityLog, gatePhotos, gateVisits, trailerEvents } from '../../server/db/tables';
import { advanceClock, db, makeUser, now, setupApp, type TestUser } from '../helpers/context';
import { createMove, finishMove, makePlace } from '../helpers/places';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let manager: TestUser;
let gestor: TestUser;
beforeEach(async () => {
  ({ api } = await setupApp());
  manager = await makeUser('manager');
  gestor = await makeUser('gestor');
});

const HOUR = 60 * 60 * 1000;

const place = (code: string, name: string, kind = 'campa', capacity = 1) =>
  makePlace(api, manager, code, name, kind, capacity);

const enter = (body: Record<string, unknown>, who: TestUser = gestor) =>
  api().post('/api/gate/entries').set(who.auth).send(body);
const exit = (body: Record<string, unknown>, who: TestUser = gestor) =>
  api().post('/api/gate/exits').set(who.auth).send(body);

const truck = { truck_plate: '1234-bcd', carrier: 'Transportes Pérez' };

async function entered(body: Record<string, unknown>): Promise<GateEntryResult> {
  const res = await enter(body);
  expect(res.status, res.text).toBe(201);
  return res.body as GateEntryResult;
}

const detail = async (plate: string) =>
  (
    await api()
      .get(`/api/trailers/${encodeURIComponent(plate)}`)
      .set(gestor.auth)
  ).body as TrailerDetail;

async function yard(): Promise<Map<string, YardLocation>> {
  const res = await api().get('/api/yard').set(gestor.auth);
  expect(res.status).toBe(200);
  return new Map((res.body as YardLocation[]).map((l) => [l.code, l]));
}

const createTask = (fields: Record<string, unknown>) => createMove(api, manager, fields);
const finish = (id: string) => finishMove(api, manager, id);

describe('entries', () => {
  it('opens a visit without a trailer: 201 {visit, trailer: null}, listed open with its stay ticking', async () => {
    const before = now().getTime();
    const { visit, trailer } = await entered({ ...truck, driver_name: '  Ana  ' });
    expect(trailer).toBeNull();
    expect(visit).toMatchObject({
      truck_plate: '1234-BCD',
      carrier: 'Transportes Pérez',
      driver_name: 'Ana',
      appointment_at: null,
      exited_at: null,
      stay_s: 0,
      wait_s: 0,
      dropped_trailer_id: null,
      picked_trailer_id: null,
      entry_seal: null,
      exit_seal: null,
      seal_mismatch: false,
    });
    expect(Date.parse(visit.entered_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(visit.entered_at)).toBeLessThanOrEqual(now().getTime());
    await advanceClock(90_000);
    const res = await api().get('/api/gate/visits?open=true').set(gestor.auth);
    expect(res.status).toBe(200);
    const [listed] = (res.body as { visits: GateVisit[] }).visits;
    expect(listed).toMatchObject({ id: visit.id, stay_s: 90, wait_s: 90 });
    const [log] = await db.select().from(activityLog).where(eq(activityLog.type, 'gate'));
    expect(log).toMatchObject({ action: 'Entrada por portería', details: '1234-BCD (Transportes Pérez)' });
  });

  it('puts the dropped trailer at its place from that moment and fills its record', async () => {
    const campa = await place('CAMPA-1', 'Campa 1');
    const { visit, trailer } = await entered({
      ...truck,
      trailer: {
        trailer_id: 'r-4136-fvr',
        kind: 'frigorifico',
        load_state: 'cargado',
        seal: 'S-1',
        reference: 'PED-9',
        adr: true,
        reefer_setpoint_c: -18,
        location_id: campa.id,
      },
    });
    expect(visit).toMatchObject({ dropped_trailer_id: 'R-4136-FVR', entry_seal: 'S-1' });
    expect(trailer).toMatchObject({
      trailer_id: 'R-4136-FVR',
      kind: 'frigorifico',
      load_state: 'cargado',
      carrier: 'Transportes Pérez',
      seal: 'S-1',
      reference: 'PED-9',
      adr: true,
      reefer_setpoint_c: -18,
      damaged: false,
      in_yard: true,
      location: { id: campa.id, code: 'CAMPA-1', name: 'Campa 1' },
      since: visit.entered_at,
    });
    const map = await yard();
    expect(map.get('CAMPA-1')!.trailers.map((t) => t.trailer_id)).toEqual(['R-4136-FVR']);
    expect(map.get('CAMPA-1')!.free).toBe(0);
    const events = await db.select().from(trailerEvents).where(eq(trailerEvents.trailerKey, 'R4136FVR'));
    expect(events.map((e) => [e.kind, e.locationId])).toEqual([['entry', campa.id]]);
    // The trailer's record lists the visit.
    expect((await detail('R4136FVR')).visits.map((v) => v.id)).toEqual([visit.id]);
  });

  it('an entry after a completed move wins, and a move completed after the entry wins over it', async () => {
    const campa = await place('CAMPA-1', 'Campa 1');
    const muelle = await place('MUELLE-2', 'Muelle 2', 'muelle');
    const gate = await place('PUERTA-1', 'Puerta 1', 'puerta');
    const out = (await createTask({ trailer_id: 'R-1-A', destination_location_id: gate.id })).body as Task;
    await finish(out.id);
    await advanceClock(60_000);
    await entered({ ...truck, trailer: { trailer_id: 'R1A', load_state: 'vacio', location_id: campa.id } });
    expect((await detail('R-1-A')).trailer.location?.id).toBe(campa.id);
    await advanceClock(60_000);
    const move = (
      await createTask({ trailer_id: 'R-1-A', origin: 'Campa 1', destination_location_id: muelle.id })
    ).body as Task;
    await finish(move.id);
    expect((await detail('R-1-A')).trailer.location?.id).toBe(muelle.id);
  });

  it('refuses an unknown, inactive or gate place (400), a full place and a trailer already in the yard (409)', async () => {
    const campa = await place('CAMPA-1', 'Campa 1');
    const gate = await place('PUERTA-1', 'Puerta 1', 'puerta');
    const gone = await place('CAMPA-9', 'Campa 9');
    expect((await api().delete(`/api/admin/locations/${gone.id}`).set(manager.auth)).status).toBe(200);
    const t = (trailer_id: string, location_id: string) => ({
      ...truck,
      trailer: { trailer_id, load_state: 'vacio', location_id },
    });
    for (const [id, detailText] of [
      [crypto.randomUUID(), GATE_ERR.unknownLocation],
      [gone.id, 'Ubicación desconocida'],
      [gate.id, 'Un remolque no puede quedarse en una puerta'],
    ] as const) {
      const res = await enter(t('R-1-A', id));
      expect(res.status, res.text).toBe(400);
      expect(res.body.detail).toBe(detailText);
    }
    await entered(t('R-1-A', campa.id));
    const twice = await enter(t('r 1 a', campa.id));
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toBe('El remolque R-1-A ya está en el patio (Campa 1)');
    const full = await enter(t('R-2-B', campa.id));
    expect(full.status).toBe(409);
    expect(full.body.detail).toBe('La ubicación Campa 1 está completa');
    // Nothing of the refused entries stays: one visit, no record of R-2-B's place.
    expect(await db.select().from(gateVisits)).toHaveLength(1);
    expect((await detail('R-2-B')).trailer?.in_yard ?? false).toBe(false);
  });

  it('a failed inspection item marks the trailer damaged; the photos become the visit’s', async () => {
    const campa = await place('CAMPA-1', 'Campa 1');
    const bytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: 'red' } })
      .jpeg()
      .toBuffer();
    const up = await api()
      .post('/api/gate/photos')
      .set(gestor.auth)
      .attach('photo', bytes, { filename: 'f.jpg', contentType: 'image/jpeg' });
    expect(up.status, up.text).toBe(201);
    const photoId = (up.body as { id: string }).id;
    const inspection = {
      items: [
        { code: 'puertas', ok: false },
        { code: 'neumaticos', ok: true },
        { code: 'luces', ok: false, note: 'Piloto trasero roto' },
      ],
      photo_ids: [photoId],
    };
    const body = {
      ...truck,
      trailer: { trailer_id: 'R-1-A', load_state: 'vacio', location_id: campa.id, inspection },
    };
    // Another user's photo is not the caller's: 400, and nothing is written.
    const other = await enter(body, manager);
    expect(other.status).toBe(400);
    expect(other.body.detail).toBe(GATE_PHOTO_ERR.invalid);
    expect(await db.select().from(gateVisits)).toHaveLength(0);
    const { visit, trailer } = await entered(body);
    expect(trailer).toMatchObject({ damaged: true, damage_note: 'Luces (Piloto trasero roto), Puertas' });
    const [photo] = await db.select().from(gatePhotos).where(eq(gatePhotos.id, photoId));
    expect(photo!.attachedTo).toBe(visit.id);
    // Reused: no longer unattached.
    const campa2 = await place('CAMPA-2', 'Campa 2');
    const again = await enter({
      ...body,
      trailer: { ...body.trailer, trailer_id: 'R-2-B', location_id: campa2.id },
    });
    expect(again.status).toBe(400);
    expect(again.body.detail).toBe(GATE_PHOTO_ERR.invalid);
  });

  it('validates the body: a missing carrier or load state, a repeated checklist item', async () => {
    const campa = await place('CAMPA-1', 'Campa 1');
    expect((await enter({ truck_plate: 'X' })).status).toBe(400);
    const res = await enter({ ...truck, trailer: { trailer_id: 'R-1-A', location_id: campa.id } });
    expect(res.status).toBe(400);
    const repeated = await enter({
      ...truck,
      trailer: {
        trailer_id: 'R-1-A',
        load_state: 'vacio',
        location_id: campa.id,
        inspection: {
          items: [
            { code: 'luces', ok: true },
            { code: 'luces', ok: false },
          ],
        },
      },
    });
    expect(repeated.status).toBe(400);
    expect(repeated.body.detail).toContain('Luces');
  });
});

describe('exits', () => {
  it('closes the visit and takes the trailer out from wherever it stands; the seal is compared', async () => {
    const campa = await place('CAMPA-1', 'Campa 1');
    const muelle = await place('MUELLE-2', 'Muelle 2', 'muelle');
    await entered({
      ...truck,
      trailer: { trailer_id: 'R-1-A', load_state: 'cargado', seal: 'S-1', location_id: campa.id },
    });
    // Moved inside the yard since.
    const move = (
      await createTask({ trailer_id: 'R-1-A', origin: 'Campa 1', destination_location_id: muelle.id })
    ).body as Task;
    await finish(move.id);
    await advanceClock(30 * 60_000);
    const { visit } = await entered({
      truck_plate: '9999-ZZZ',
      carrier: 'Otra',
      appointment_at: new Date(now().getTime() + 10 * 60_000).toISOString(),
    });
    await advanceClock(40 * 60_000);
    const res = await exit({ visit_id: visit.id, trailer: { trailer_id: 'r1a', seal: 's-2' } });
    expect(res.status, res.text).toBe(200);
    const closed = (res.body as { visit: GateVisit }).visit;
    expect(closed).toMatchObject({
      id: visit.id,
      picked_trailer_id: 'R-1-A',
      exit_seal: 's-2',
      seal_mismatch: true,
      stay_s: 40 * 60,
      wait_s: 30 * 60,
    });
    expect(Date.parse(closed.exited_at!)).toBeLessThanOrEqual(now().getTime());
    expect(Date.parse(closed.exited_at!)).toBeGreaterThan(now().getTime() - 1000);
    const record = await detail('R-1-A');
    expect(record.trailer).toMatchObject({ in_yard: false, location: null, seal: 'S-1' });
    expect((await yard()).get('MUELLE-2')!.trailers).toEqual([]);
    const events = await db
      .select()
      .from(trailerEvents)
      .where(and(eq(trailerEvents.trailerKey, 'R1A'), eq(trailerEvents.kind, 'exit')));
    expect(events).toHaveLength(1);
    expect(events[0]!.locationId).toBeNull();
    expect(record.visits.map((v) => v.id)).toEqual([visit.id, expect.any(String)]);
    // Closed: 409; unknown: 404; open visits no longer list it.
    const again = await exit({ visit_id: visit.id });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('La visita ya está cerrada');
    const unknown = await exit({ visit_id: crypto.randomUUID() });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe(GATE_ERR.visitNotFound);
    const open = (await api().get('/api/gate/visits?open=true').set(gestor.auth)).body as {
      visits: GateVisit[];
    };
    expect(open.visits.map((v) => v.id)).not.toContain(visit.id);
  });

  it('the same seal is no mismatch; an exit without a trailer closes the visit only', async () => {
    const campa = await place('CAMPA-1', 'Campa 1');
    const { visit } = await entered({
      ...truck,
      trailer: { trailer_id: 'R-1-A', load_state: 'cargado', seal: 'S-1', location_id: campa.id },
    });
    const res = await exit({ visit_id: visit.id, trailer: { trailer_id: 'R-1-A', seal: ' s-1 ' } });
    expect(res.status, res.text).toBe(200);
    expect((res.body as { visit: GateVisit }).visit.seal_mismatch).toBe(false);
    const other = await entered({ truck_plate: 'B', carrier: 'C' });
    const bare = await exit({ visit_id: other.visit.id });
    expect(bare.status).toBe(200);
    expect((bare.body as { visit: GateVisit }).visit).toMatchObject({
      picked_trailer_id: null,
      seal_mismatch: false,
    });
  });

  it('refuses a trailer with an open task, and one not in the yard; one left at a gate within 12 h is picked', async () => {
    const campa = await place('CAMPA-1', 'Campa 1');
    const gate = await place('PUERTA-1', 'Puerta 1', 'puerta');
    await entered({
      ...truck,
      trailer: { trailer_id: 'R-1-A', load_state: 'cargado', location_id: campa.id },
    });
    const task = (
      await createTask({ trailer_id: 'R-1-A', origin: 'Campa 1', destination_location_id: gate.id })
    ).body as Task;
    const { visit } = await entered({ truck_plate: 'B', carrier: 'C' });
    const pending = await exit({ visit_id: visit.id, trailer: { trailer_id: 'R-1-A' } });
    expect(pending.status).toBe(409);
    expect(pending.body.detail).toBe('El remolque tiene un movimiento pendiente');
    const unknown = await exit({ visit_id: visit.id, trailer: { trailer_id: 'R-404' } });
    expect(unknown.status).toBe(409);
    expect(unknown.body.detail).toBe('El remolque R-404 no está en el patio');
    await finish(task.id); // taken to the gate by a driver: out of the yard
    await advanceClock(11 * HOUR);
    gestor = await makeUser('gestor'); // a token of now
    const picked = await exit({ visit_id: visit.id, trailer: { trailer_id: 'R-1-A' } });
    expect(picked.status, picked.text).toBe(200);
    expect((picked.body as { visit: GateVisit }).visit.picked_trailer_id).toBe('R-1-A');
    // A later truck, past 12 h: no longer accepted.
    const later = await entered({ truck_plate: 'D', carrier: 'C' });
    await advanceClock(2 * HOUR);
    gestor = await makeUser('gestor'); // a token of now
    const late = await exit({ visit_id: later.visit.id, trailer: { trailer_id: 'R-1-A' } });
    expect(late.status).toBe(409);
    expect(late.body.detail).toBe('El remolque R-1-A no está en el patio');
  });
});

describe('visits and suggestions', () => {
  it('GET /gate/visits?date= lists the visits that entered that Madrid day; the query is checked', async () => {
    const { visit } = await entered(truck);
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid' }).format(now());
    const res = await api().get(`/api/gate/visits?date=${day}`).set(gestor.auth);
    expect(res.status).toBe(200);
    expect((res.body as { visits: GateVisit[] }).visits.map((v) => v.id)).toEqual([visit.id]);
    const other = await api().get('/api/gate/visits?date=2001-01-01').set(gestor.auth);
    expect((other.body as { visits: GateVisit[] }).visits).toEqual([]);
    expect((await api().get('/api/gate/visits').set(gestor.auth)).status).toBe(400);
    expect((await api().get('/api/gate/visits?date=ayer').set(gestor.auth)).status).toBe(400);
  });

  it('GET /gate/suggestions: the preferred kind first, then more room, then natural order; no full or excluded places', async () => {
    await place('CAMPA-10', 'Campa 10', 'campa', 2);
    await place('CAMPA-2', 'Campa 2', 'campa', 2);
    await place('CAMPA-3', 'Campa 3', 'campa', 3);
    const parking = await place('APARC-1', 'Aparcamiento 1', 'aparcamiento', 1);
    await place('MUELLE-1', 'Muelle 1', 'muelle', 5);
    for (const [code, kind] of [
      ['PUERTA-1', 'puerta'],
      ['TALLER-1', 'taller'],
      ['BASCULA-1', 'bascula'],
      ['LAVADERO-1', 'lavadero'],
    ])
      await place(code, code, kind, 9);
    const names = async (q: string) => {
      const res = await api().get(`/api/gate/suggestions${q}`).set(gestor.auth);
      expect(res.status, res.text).toBe(200);
      return (res.body as GateSuggestion[]).map((s) => `${s.location.name}:${s.free}`);
    };
    expect(await names('?load_state=cargado&kind=lona')).toEqual([
      'Campa 3:3',
      'Campa 2:2',
      'Campa 10:2',
      'Muelle 1:5',
      'Aparcamiento 1:1',
    ]);
    expect(await names('?load_state=vacio')).toEqual([
      'Aparcamiento 1:1',
      'Muelle 1:5',
      'Campa 3:3',
      'Campa 2:2',
      'Campa 10:2',
    ]);
    await entered({
      ...truck,
      trailer: { trailer_id: 'R-1-A', load_state: 'vacio', location_id: parking.id },
    });
    expect(await names('')).toEqual(['Muelle 1:5', 'Campa 3:3', 'Campa 2:2', 'Campa 10:2']);
    expect((await api().get('/api/gate/suggestions?load_state=x').set(gestor.auth)).status).toBe(400);
  });
});

describe('races', () => {
  it('two entries of one trailer at once: one 201, one 409', async () => {
    const a = await place('CAMPA-1', 'Campa 1');
    const b = await place('CAMPA-2', 'Campa 2');
    for (let round = 0; round < 3; round++) {
      const [x, y] = await Promise.all([
        enter({ ...truck, trailer: { trailer_id: `R-${round}-A`, load_state: 'vacio', location_id: a.id } }),
        enter({ ...truck, trailer: { trailer_id: `r${round}a`, load_state: 'vacio', location_id: b.id } }),
      ]);
      expect([x.status, y.status].sort(), `${x.text} ${y.text}`).toEqual([201, 409]);
      const loser = x.status === 409 ? x : y;
      expect(loser.body.detail).toMatch(/^El remolque R-?\d-?A ya está en el patio \(Campa [12]\)$/);
      // Free both places for the next round.
      const open = (await api().get('/api/gate/visits?open=true').set(gestor.auth)).body as {
        visits: GateVisit[];
      };
      const holding = open.visits.find((v) => v.dropped_trailer_id !== null)!;
      const out = await exit({ visit_id: holding.id, trailer: { trailer_id: holding.dropped_trailer_id } });
      expect(out.status, out.text).toBe(200);
    }
    expect(await db.select().from(gateVisits)).toHaveLength(3);
  });

  it('two trailers entering the last free slot of a place at once: one 201, one 409 full', async () => {
    const campa = await place('CAMPA-1', 'Campa 1'); // capacity 1
    for (let round = 0; round < 3; round++) {
      const [x, y] = await Promise.all(
        ['A', 'B'].map((s) =>
          enter({
            ...truck,
            trailer: { trailer_id: `R-${round}-${s}`, load_state: 'vacio', location_id: campa.id },
          }),
        ),
      );
      expect([x!.status, y!.status].sort(), `${x!.text} ${y!.text}`).toEqual([201, 409]);
      const [winner, loser] = x!.status === 201 ? [x!, y!] : [y!, x!];
      expect(loser.body.detail).toBe('La ubicación Campa 1 está completa');
      const { visit } = winner.body as { visit: GateVisit };
      const out = await exit({ visit_id: visit.id, trailer: { trailer_id: visit.dropped_trailer_id } });
      expect(out.status, out.text).toBe(200);
    }
    expect(await db.select().from(gateVisits)).toHaveLength(3);
  });

  it('ten trailers entering one place at once all enter: its lock never deadlocks with their references to it', async () => {
    const campa = await place('CAMPA-1', 'Campa 1', 'campa', 50);
    const res = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        enter({ ...truck, trailer: { trailer_id: `R-${i}-C`, load_state: 'vacio', location_id: campa.id } }),
      ),
    );
    expect(res.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(await db.select().from(gateVisits)).toHaveLength(10);
  });

  it('two exits of one visit at once: one 200, one 409', async () => {
    const campa = await place('CAMPA-1', 'Campa 1');
    for (let round = 0; round < 3; round++) {
      const { visit } = await entered({
        ...truck,
        trailer: { trailer_id: `R-${round}`, load_state: 'vacio', location_id: campa.id },
      });
      const [x, y] = await Promise.all([
        exit({ visit_id: visit.id, trailer: { trailer_id: `R-${round}` } }),
        exit({ visit_id: visit.id, trailer: { trailer_id: `R-${round}` } }),
      ]);
      expect([x.status, y.status].sort(), `${x.text} ${y.text}`).toEqual([200, 409]);
      const events = await db
        .select()
        .from(trailerEvents)
        .where(and(eq(trailerEvents.trailerKey, `R${round}`), eq(trailerEvents.kind, 'exit')));
      expect(events).toHaveLength(1);
    }
  });
});

describe('who may', () => {
  it('a conductor may not use the gate (403)', async () => {
    const driver = await makeUser('conductor');
    expect((await enter(truck, driver)).status).toBe(403);
    expect((await exit({ visit_id: crypto.randomUUID() }, driver)).status).toBe(403);
    expect((await api().get('/api/gate/visits?open=true').set(driver.auth)).status).toBe(403);
    expect((await api().get('/api/gate/suggestions').set(driver.auth)).status).toBe(403);
  });
});

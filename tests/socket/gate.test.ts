// `gate:changed {visit}` (issue 27, CONTRACT §19, §24): staff hear a visit when it opens and when it
// closes, with the dropped trailer's `trailer:changed` and the place's `yard:changed`; drivers hear none.
import { beforeAll, describe, expect, it } from 'vitest';
import type { GateVisit, Location } from '@shared/schemas';
import { collect, liveServer, makeUser, nextEvent, sleep, type TestUser } from '../helpers/context';
import { makePlace } from '../helpers/places';

const server = liveServer();
let manager: TestUser;
let campa: Location;

beforeAll(async () => {
  manager = await makeUser('manager');
  campa = await makePlace(server.api, manager, 'CG-1', 'Campa G-1', 'campa', 2);
});

describe('gate:changed', () => {
  it('reaches staff when a visit opens and closes, with trailer:changed and yard:changed; never drivers', async () => {
    const gestor = await makeUser('gestor');
    const driver = await makeUser('conductor');
    const [sm, sg, sd] = await Promise.all([manager, gestor, driver].map((u) => server.connect(u.token)));
    const driverGate = collect(sd, 'gate:changed');
    const driverTrailer = collect(sd, 'trailer:changed');

    const opened = [nextEvent(sm, 'gate:changed'), nextEvent(sg, 'gate:changed')];
    const trailer = nextEvent(sg, 'trailer:changed');
    const yard = nextEvent(sg, 'yard:changed');
    const res = await server
      .api()
      .post('/api/gate/entries')
      .set(gestor.auth)
      .send({
        truck_plate: '1234-BCD',
        carrier: 'Trans',
        trailer: { trailer_id: 'R-900-G', load_state: 'cargado', location_id: campa.id },
      });
    expect(res.status, res.text).toBe(201);
    const visit = res.body.visit as GateVisit;
    for (const p of opened) expect((await p).visit).toEqual(visit);
    expect((await trailer).trailer).toMatchObject({ trailer_id: 'R-900-G', location: { id: campa.id } });
    expect((await yard).location_ids).toEqual([campa.id]);

    const closed = nextEvent(sg, 'gate:changed');
    const left = nextEvent(sg, 'trailer:changed');
    const out = await server
      .api()
      .post('/api/gate/exits')
      .set(gestor.auth)
      .send({ visit_id: visit.id, trailer: { trailer_id: 'R900G' } });
    expect(out.status, out.text).toBe(200);
    expect((await closed).visit).toMatchObject({ id: visit.id, picked_trailer_id: 'R-900-G' });
    expect((await closed).visit.exited_at).not.toBeNull();
    expect((await left).trailer).toMatchObject({ in_yard: false });

    // A refused entry pushes nothing.
    const quiet = collect(sg, 'gate:changed');
    const refused = await server
      .api()
      .post('/api/gate/entries')
      .set(gestor.auth)
      .send({
        truck_plate: 'X',
        carrier: 'Y',
        trailer: { trailer_id: 'R-1', load_state: 'vacio', location_id: crypto.randomUUID() },
      });
    expect(refused.status).toBe(400);
    await sleep(200);
    expect(quiet).toEqual([]);
    expect(driverGate).toEqual([]);
    expect(driverTrailer).toEqual([]);
  });
});

// `trailer:changed {trailer}` (issue 27, CONTRACT §19, §24): staff hear a trailer's record when a staff
// correction places it (with `yard:changed` for the places), when it is edited, and when a completed move
// takes it elsewhere; drivers never hear it.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Location } from '@shared/schemas';
import { collect, liveServer, makeUser, nextEvent, sleep, type TestUser } from '../helpers/context';
import { makePlace } from '../helpers/places';

const server = liveServer();
let manager: TestUser;
let places: Record<'a' | 'b', Location>;

beforeAll(async () => {
  manager = await makeUser('manager');
  const make = (code: string, name: string) => makePlace(server.api, manager, code, name, 'campa', 2);
  places = { a: await make('CT-1', 'Campa T-1'), b: await make('CT-2', 'Campa T-2') };
});

describe('trailer:changed', () => {
  it('reaches staff with the record after a correction, an edit and a move; never drivers', async () => {
    const gestor = await makeUser('gestor');
    const driver = await makeUser('conductor', { taskTypes: ['swap', 'semiremolque'] });
    const [sm, sg, sd] = await Promise.all([manager, gestor, driver].map((u) => server.connect(u.token)));
    const driverHeard = collect(sd, 'trailer:changed');

    const heard = [nextEvent(sm, 'trailer:changed'), nextEvent(sg, 'trailer:changed')];
    const yardHeard = nextEvent(sm, 'yard:changed');
    const placed = await server
      .api()
      .post('/api/trailers/r-300-t/position')
      .set(manager.auth)
      .send({ location_id: places.a.id, note: 'Ronda' });
    expect(placed.status, placed.text).toBe(200);
    for (const p of heard)
      expect((await p).trailer).toMatchObject({
        trailer_id: 'R-300-T',
        in_yard: true,
        location: { id: places.a.id, name: 'Campa T-1' },
      });
    expect((await yardHeard).location_ids).toEqual([places.a.id]);

    let next = nextEvent(sm, 'trailer:changed');
    const edited = await server
      .api()
      .put('/api/trailers/R300T')
      .set(manager.auth)
      .send({ version: placed.body.trailer.version, load_state: 'vacio' });
    expect(edited.status, edited.text).toBe(200);
    expect((await next).trailer).toMatchObject({ load_state: 'vacio', version: edited.body.trailer.version });

    const task = await server.createTask(manager, {
      origin: 'Campa T-1',
      destination: 'Campa T-2',
      trailer_id: 'R 300 T',
      vehicle_type: 'swap',
    });
    next = nextEvent(sm, 'trailer:changed');
    const done = await server
      .api()
      .put(`/api/tasks/${task.id}`)
      .set(manager.auth)
      .send({ status: 'finalizada' });
    expect(done.status).toBe(200);
    expect((await next).trailer).toMatchObject({ trailer_id: 'R-300-T', location: { id: places.b.id } });

    await sleep(100);
    expect(driverHeard).toEqual([]);
  });
});

// `yard:changed` (issue 18, CONTRACT §17): staff hear which places changed when a task heads to one, a
// move completes (the place left and the place reached), a trailer is marked gone and the catalogue
// changes; drivers never hear it; a task between free-text places changes no place and says nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Location } from '@shared/schemas';
import { collect, liveServer, makeUser, nextEvent, type TestUser } from '../helpers/context';
import { makePlace } from '../helpers/places';

const server = liveServer();
let manager: TestUser;
let places: Record<'a' | 'b', Location>;

beforeAll(async () => {
  manager = await makeUser('manager');
  const make = (code: string, name: string) => makePlace(server.api, manager, code, name, 'campa', 2);
  places = { a: await make('CA-1', 'Campa A-1'), b: await make('CA-2', 'Campa A-2') };
});

const finish = async (id: string) =>
  expect(
    (await server.api().put(`/api/tasks/${id}`).set(manager.auth).send({ status: 'finalizada' })).status,
  ).toBe(200);

describe('yard:changed', () => {
  it('reaches staff with the places a task heads to, leaves and reaches; never drivers', async () => {
    const gestor = await makeUser('gestor');
    const driver = await makeUser('conductor', { taskTypes: ['swap', 'semiremolque'] });
    const [sm, sg, sd] = await Promise.all([manager, gestor, driver].map((u) => server.connect(u.token)));
    const driverHeard = collect(sd, 'yard:changed');

    let heard = [nextEvent(sm, 'yard:changed'), nextEvent(sg, 'yard:changed')];
    const arrive = await server.createTask(manager, {
      origin: 'Fuera',
      destination: 'campa a-1',
      vehicle_type: 'swap',
    });
    for (const p of heard) expect((await p).location_ids).toEqual([places.a.id]);

    heard = [nextEvent(sm, 'yard:changed')];
    await finish(arrive.id);
    expect((await heard[0]!).location_ids).toEqual([places.a.id]);

    heard = [nextEvent(sm, 'yard:changed')];
    const move = await server.createTask(manager, {
      origin: 'Campa A-1',
      destination: 'Campa A-2',
      trailer_id: arrive.trailer_id,
      vehicle_type: 'swap',
    });
    expect((await heard[0]!).location_ids.sort()).toEqual([places.a.id, places.b.id].sort());
    heard = [nextEvent(sm, 'yard:changed')];
    await finish(move.id);
    expect((await heard[0]!).location_ids.sort()).toEqual([places.a.id, places.b.id].sort());

    heard = [nextEvent(sm, 'yard:changed')];
    const left = await server.api().post(`/api/yard/trailers/${arrive.trailer_id}/leave`).set(manager.auth);
    expect(left.status).toBe(200);
    expect((await heard[0]!).location_ids).toEqual([places.b.id]);

    // A barrier: the catalogue change below reaches the manager after everything above.
    heard = [nextEvent(sm, 'yard:changed')];
    const edited = await server
      .api()
      .put(`/api/admin/locations/${places.a.id}`)
      .set(manager.auth)
      .send({ capacity: 3 });
    expect(edited.status).toBe(200);
    expect((await heard[0]!).location_ids).toContain(places.a.id);
    expect(driverHeard).toEqual([]);
  });

  it('a task between places outside the catalogue changes no place: nothing is sent', async () => {
    const sm = await server.connect(manager.token);
    const heard = collect(sm, 'yard:changed');
    const created = nextEvent(sm, 'task:created');
    const task = await server.createTask(manager, { origin: 'Calle Mayor', destination: 'Polígono Sur' });
    expect((await created).task.id).toBe(task.id);
    // The catalogue change is the barrier: its event comes after anything the task could have sent.
    const barrier = nextEvent(sm, 'yard:changed');
    await server.api().put(`/api/admin/locations/${places.b.id}`).set(manager.auth).send({ x: 4 });
    expect((await barrier).location_ids).toContain(places.b.id);
    expect(heard).toHaveLength(1);
  });
});

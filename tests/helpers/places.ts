// A test's yard scene through the API: a catalogue place (POST /admin/locations), a move between texts or
// places (POST /tasks, swap: nobody is assigned it by itself) and its completion.
import { expect } from 'vitest';
import type supertest from 'supertest';
import type { Location } from '@shared/schemas';
import type { TestUser } from './context';

export async function makePlace(
  api: () => supertest.Agent,
  by: TestUser,
  code: string,
  name: string,
  kind = 'campa',
  capacity = 1,
): Promise<Location> {
  const res = await api()
    .post('/api/admin/locations')
    .set(by.auth)
    .send({ code, name, kind, zone: 'Campa A', capacity, x: 0, y: 0 });
  expect(res.status, res.text).toBe(201);
  return res.body as Location;
}

/** A swap move of a trailer (free-text places unless the fields say otherwise), as `by` creates it. */
export const createMove = (api: () => supertest.Agent, by: TestUser, fields: Record<string, unknown>) =>
  api()
    .post('/api/tasks')
    .set(by.auth)
    .send({ title: 'Mover', origin: 'Fuera', destination: 'Fuera', vehicle_type: 'swap', ...fields });

/** Staff finish a task: its trailer stands at its destination from now on. */
export async function finishMove(api: () => supertest.Agent, by: TestUser, id: string): Promise<void> {
  const res = await api().put(`/api/tasks/${id}`).set(by.auth).send({ status: 'finalizada' });
  expect(res.status, res.text).toBe(200);
}

// A catalogue place made through the API (POST /admin/locations) for a test's scene.
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

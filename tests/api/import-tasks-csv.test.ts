// The example client of docs/INTEGRATION.md (scripts/import-tasks-csv.ts) against a real server: each line
// created, found or refused with the server's Spanish reason. Both engines. It runs with a real API key with
// `tasks:write`, made by an admin as docs/INTEGRATION.md says.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { ApiClientCreated } from '@shared/schemas';
import { apiClientActor } from '@shared/labels';
import { tasks } from '../../server/db/tables';
import { db, makeUser, setupServer, type TestUser } from '../helpers/context';
import { httpCreateTask, importTasksCsv } from '../../scripts/import-tasks-csv';

let server: Awaited<ReturnType<typeof setupServer>>;
let admin: TestUser;
let client: ApiClientCreated;
beforeAll(async () => {
  server = await setupServer();
  admin = await makeUser('admin');
  const made = await server
    .api()
    .post('/api/admin/api-clients')
    .set(admin.auth)
    .send({ name: 'WMS CSV', scopes: ['tasks:write'] });
  expect(made.status, made.text).toBe(201);
  client = made.body as ApiClientCreated;
});
afterAll(async () => {
  await server.close();
});

const CSV = [
  'title;origin;destination;trailer_id;priority;vehicle_type;due_at;external_ref',
  'Mover;Muelle 1;Campa A;R-CSV-1;high;swap;;WMS-100',
  'Volar;Muelle 2;Campa B;R-CSV-2;;;;WMS-101',
  'Mover;Muelle 3;Campa C;R-CSV-1;;;;WMS-102',
  '',
  'Recolocar;Campa A;Muelle 4;R-CSV-3;;;;',
].join('\r\n');

it('creates the lines it may as the key’s client, and says why the others were refused; a rerun creates nothing', async () => {
  const create = httpCreateTask(server.url, client.key);
  const results = await importTasksCsv(CSV, create);
  expect(results.map(({ line, outcome }) => [line, outcome])).toEqual([
    [2, 'created'],
    [3, 'refused'],
    [4, 'refused'],
    [6, 'created'],
  ]);
  expect(results[1]?.text).toMatch(/^title: /);
  expect(results[2]?.text).toContain('R-CSV-1');
  const [first] = await db.select().from(tasks).where(eq(tasks.id, results[0]!.text));
  expect(first).toMatchObject({
    trailerId: 'R-CSV-1',
    priority: 'high',
    vehicleType: 'swap',
    externalRef: 'WMS-100',
    createdBy: null,
    createdByClientId: client.id,
  });
  expect(await db.select().from(tasks)).toHaveLength(2);
  const shown = await server.api().get(`/api/tasks/${first!.id}`).set(admin.auth);
  expect(shown.body.created_by_name).toBe(apiClientActor('WMS CSV'));

  // The same file again: the line with an external_ref finds its task; the one without is the trailer's 409.
  const again = await importTasksCsv(CSV, create);
  expect(again.map(({ line, outcome, text }) => [line, outcome, outcome === 'existing' ? text : ''])).toEqual(
    [
      [2, 'existing', first!.id],
      [3, 'refused', ''],
      [4, 'refused', ''],
      [6, 'refused', ''],
    ],
  );
  expect(await db.select().from(tasks)).toHaveLength(2);
});

it('a 200 (the same external_ref of an open task) is reported as already there', async () => {
  const results = await importTasksCsv(
    'title,origin,destination,trailer_id,external_ref\nMover,A,B,R-9,WMS-9',
    () => Promise.resolve({ status: 200, body: { id: 'la-tarea' } }),
  );
  expect(results).toEqual([{ line: 2, outcome: 'existing', text: 'la-tarea' }]);
});

it('refuses a file with a column it does not know', async () => {
  await expect(
    importTasksCsv('title,origen\nMover,A', () => Promise.reject(new Error('no'))),
  ).rejects.toThrow('Columnas desconocidas: origen');
});

// The example client of docs/INTEGRATION.md (scripts/import-tasks-csv.ts) against a real server: each line
// created, found or refused with the server's Spanish reason. Both engines. It runs with a staff token until
// API keys exist (a key travels the same way: `Authorization: Bearer …`).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { tasks } from '../../server/db/tables';
import { db, makeUser, setupServer, type TestUser } from '../helpers/context';
import { httpCreateTask, importTasksCsv } from '../../scripts/import-tasks-csv';

let server: Awaited<ReturnType<typeof setupServer>>;
let manager: TestUser;
beforeAll(async () => {
  server = await setupServer();
  manager = await makeUser('manager');
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

it('creates the lines it may, and says why the others were refused', async () => {
  const token = manager.auth.Authorization.replace(/^Bearer /, '');
  const results = await importTasksCsv(CSV, httpCreateTask(server.url, token));
  expect(results.map(({ line, outcome }) => [line, outcome])).toEqual([
    [2, 'created'],
    [3, 'refused'],
    [4, 'refused'],
    [6, 'created'],
  ]);
  expect(results[1]?.text).toMatch(/^title: /);
  expect(results[2]?.text).toContain('R-CSV-1');
  const [first] = await db.select().from(tasks).where(eq(tasks.id, results[0]!.text));
  expect(first).toMatchObject({ trailerId: 'R-CSV-1', priority: 'high', vehicleType: 'swap' });
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

// Long reads off the event loop (issue 31, server/db/read-pool.ts): on both engines the searcher, the
// reports, the indicators, the handover and the exports run on read threads. The answer is the service's
// own, a refusal keeps its status and Spanish detail, the thread runs with the server's clock, and a read
// that starts after a write's answer sees the write (CONTRACT §23).
import etag from 'etag';
import { beforeEach, expect, it } from 'vitest';
import { ERR, SUPERVISION_ERR, YARD_EXCEL } from '@shared/labels';
import { addDays } from '@shared/periods';
import { madridDay } from '@shared/time';
import { readThreads } from '../../server/db/read-pool';
import { searchTasks } from '../../server/services/search';
import { deficienciesReport } from '../../server/services/reports';
import { EXPORT_MAX_DAYS } from '../../server/services/timeclock-summary';
import { advanceClock, makeTask, makeUser, now, setupApp, type TestUser } from '../helpers/context';
import { fetchWorkbook } from '../helpers/excel';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let admin: TestUser;
beforeEach(async () => {
  ({ api } = await setupApp());
  admin = await makeUser('admin');
});

const ago = (ms: number) => new Date(now().getTime() - ms);
const HOUR = 3_600_000;

it('runs on the read threads on either engine', () => {
  expect(readThreads.available).toBe(true);
});

it('a search and a report answer what their service computes in the server', async () => {
  // Tasks that waited half an hour for their driver: the deficiencies report's incidents (finished, so
  // the report does not depend on the moment it is computed).
  for (let i = 0; i < 5; i++) {
    const createdAt = ago((i + 2) * HOUR);
    await makeTask({
      origin: `Muelle ${i}`,
      status: 'finalizada',
      createdAt,
      assignedAt: new Date(createdAt.getTime() + HOUR / 2),
      completedAt: new Date(createdAt.getTime() + HOUR),
    });
  }
  const q = { search_type: 'all', query: 'muelle' } as const;
  const searched = await api().get('/api/admin/search/tasks').query(q).set(admin.auth);
  expect(searched.status).toBe(200);
  expect(searched.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(searched.body).toHaveLength(5);
  expect(searched.body).toEqual(JSON.parse(JSON.stringify(await searchTasks(q))));
  // The ETag Express gives these bytes (computed on the thread), and a 304 to the request that has it.
  expect(searched.headers.etag).toBe(etag(Buffer.from(searched.text), { weak: true }));
  const again = await api()
    .get('/api/admin/search/tasks')
    .query(q)
    .set(admin.auth)
    .set('If-None-Match', searched.headers.etag as string);
  expect(again.status).toBe(304);

  const report = await api().get('/api/admin/reports/deficiencies?period=24h').set(admin.auth);
  expect(report.status).toBe(200);
  expect(report.body.summary.total_incidents).toBe(5);
  expect(report.body).toEqual(JSON.parse(JSON.stringify(await deficienciesReport({ period: '24h' }))));
});

it('a refusal met by the read keeps its status and Spanish detail, for a JSON answer and for an export', async () => {
  const today = madridDay(now().getTime());
  const future = await api()
    .get(`/api/admin/indicators?from=${today}&to=${addDays(today, 1)}`)
    .set(admin.auth);
  expect([future.status, future.body]).toEqual([400, { detail: ERR.periodInvalid }]);

  const long = await api()
    .get(`/api/admin/indicators/export-excel?from=${addDays(today, -100)}&to=${today}`)
    .set(admin.auth);
  expect([long.status, long.body]).toEqual([400, { detail: ERR.periodTooLong }]);

  const year = await api()
    .get(`/api/admin/timeclock/export-excel?date_from=${addDays(today, -400)}&date_to=${today}`)
    .set(admin.auth);
  expect([year.status, year.body]).toEqual([400, { detail: SUPERVISION_ERR.rangeTooLong(EXPORT_MAX_DAYS) }]);
});

it("the read runs with the server's clock (TEST_CLOCK): a day that is only today on the moved clock", async () => {
  await advanceClock(3 * 24 * HOUR);
  // A session opened on the moved clock (the one opened before it expired on the way).
  admin = await makeUser('admin');
  const today = madridDay(now().getTime());
  const res = await api().get(`/api/admin/indicators?from=${today}&to=${today}`).set(admin.auth);
  expect(res.status).toBe(200);
  expect(res.body.period).toMatchObject({ from: today, to: today });

  const { res: file, wb } = await fetchWorkbook(api().get('/api/yard/trailers/export-excel').set(admin.auth));
  expect(file.status).toBe(200);
  expect(file.headers['content-disposition']).toBe(`attachment; filename="${YARD_EXCEL.fileName(today)}"`);
  expect(wb!.worksheets).toHaveLength(1);
});

it('a read that starts after a write has answered sees the write (CONTRACT §23)', async () => {
  for (let i = 0; i < 3; i++) {
    const created = await api()
      .post('/api/tasks')
      .set(admin.auth)
      .send({ title: 'Mover', origin: 'Muelle 7', destination: 'Campa B-1', trailer_id: `LR-${i}` });
    expect(created.status).toBe(201);
    const found = await api()
      .get(`/api/admin/search/tasks?search_type=trailer&query=LR-${i}`)
      .set(admin.auth);
    expect(found.body.map((t: { id: string }) => t.id)).toEqual([created.body.id]);
  }
});

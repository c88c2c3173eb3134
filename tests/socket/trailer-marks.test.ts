// CONTRACT §19 (issue 27): every task shows its trailer's marks {kind, load_state, adr, reefer_setpoint_c,
// damaged} — the board, the driver's task, the searcher, the pushes — and a change of the trailer's record
// bumps its open tasks (version + 1, task:updated with the new marks, a new board answer); a finished task
// keeps its version but the board still shows the new marks. Both engines (server-pg).
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TRAILER_MARKS,
  type SearchTask,
  type Task,
  type TaskTrailerMarks,
  type YardLocation,
  type YardTrailer,
} from '@shared/schemas';
import { TRAILER_EXCEL_HEADERS } from '@shared/labels';
import { liveServer, makeUser, nextMatching } from '../helpers/context';
import { makePlace } from '../helpers/places';
import { boardReader, versionOf } from '../helpers/board';
import { fetchWorkbook, sheetTable } from '../helpers/excel';

const server = liveServer();
const { board, settledEtag } = boardReader(server);

/** A loaded reefer with dangerous goods at −18 °C. */
const REEFER_EDIT = {
  kind: 'frigorifico',
  load_state: 'cargado',
  adr: true,
  reefer_setpoint_c: -18,
} as const;

async function editTrailer(plate: string, by: { auth: Record<string, string> }, body: object) {
  const path = `/api/trailers/${encodeURIComponent(plate)}`;
  const read = await server.api().get(path).set(by.auth);
  expect(read.status, read.text).toBe(200);
  const version = (read.body as { trailer: { version: number } }).trailer.version;
  return server
    .api()
    .put(path)
    .set(by.auth)
    .send({ ...body, version });
}

describe("tasks show their trailer's marks", () => {
  it('a new task carries the defaults; the board, the driver and the searcher show the edited marks', async () => {
    const manager = await makeUser('manager');
    const driver = await makeUser('conductor', { taskTypes: ['swap'] });
    const created = await server.createTask(manager, { vehicle_type: 'swap', trailer_id: 'R-4136-FVR' });
    expect(created.trailer).toEqual(DEFAULT_TRAILER_MARKS);

    const res = await editTrailer('r4136fvr', manager, REEFER_EDIT);
    expect(res.status, res.text).toBe(200);
    const marks: TaskTrailerMarks = { ...REEFER_EDIT, damaged: false };

    const list = await server.api().get('/api/tasks').set(manager.auth);
    expect(list.status).toBe(200);
    expect((list.body as Task[]).find((t) => t.id === created.id)?.trailer).toEqual(marks);

    const claim = await server.api().post(`/api/tasks/${created.id}/self-assign`).set(driver.auth);
    expect(claim.status, claim.text).toBe(200);
    const mine = await server.api().get('/api/tasks/my-active').set(driver.auth);
    expect(mine.status).toBe(200);
    expect((mine.body as Task).trailer).toEqual(marks);

    const found = await server
      .api()
      .get('/api/admin/search/tasks')
      .query({ search_type: 'all', query: 'R 4136 FVR' })
      .set(manager.auth);
    expect(found.status, found.text).toBe(200);
    const results = found.body as SearchTask[];
    expect(results.find((t) => t.id === created.id)?.trailer).toEqual(marks);
  });

  it('a trailer edit bumps its open task and pushes the new marks; a finished task keeps its version', async () => {
    const admin = await makeUser('admin');
    const manager = await makeUser('manager');
    const open = await server.createTask(manager, { vehicle_type: 'swap', trailer_id: 'R-1-A' });
    const done = await server.createTask(manager, { vehicle_type: 'swap', trailer_id: 'R-2-B' });
    expect((await server.put(done.id, { status: 'finalizada' }, admin)).status).toBe(200);
    const openBefore = await versionOf(open.id);
    const doneBefore = await versionOf(done.id);
    const staff = await server.connect(admin.token);
    const etag = await settledEtag(admin);
    const pushed = nextMatching(
      staff,
      'task:updated',
      ({ task: t }) => t.id === open.id && t.version > openBefore,
    );

    const res = await editTrailer('r1a', manager, { kind: 'cisterna', adr: true });
    expect(res.status, res.text).toBe(200);

    expect(await versionOf(open.id)).toBe(openBefore + 1);
    const sent = (await pushed).task;
    expect(sent.version).toBe(openBefore + 1);
    expect(sent.trailer).toEqual({ ...DEFAULT_TRAILER_MARKS, kind: 'cisterna', adr: true });
    const answer = await board(admin, etag);
    expect(answer.status).toBe(200);
    expect(answer.headers.etag).not.toBe(etag);
    expect((answer.body as Task[]).find((t) => t.id === open.id)?.trailer.adr).toBe(true);

    // A finished task is not bumped, but the board's answer follows its trailer's marks.
    const etag2 = await settledEtag(admin);
    const edit = await editTrailer('R-2-B', manager, { load_state: 'vacio' });
    expect(edit.status, edit.text).toBe(200);
    expect(await versionOf(done.id)).toBe(doneBefore);
    const again = await board(admin, etag2);
    expect(again.status).toBe(200);
    expect(again.headers.etag).not.toBe(etag2);
    expect((again.body as Task[]).find((t) => t.id === done.id)?.trailer.load_state).toBe('vacio');
  });

  it('the Patio and its export show the marks of the trailers standing', async () => {
    const manager = await makeUser('manager');
    await makePlace(server.api, manager, 'CA-1', 'Campa A-1', 'campa', 2);
    const task = await server.createTask(manager, {
      vehicle_type: 'swap',
      trailer_id: 'R-7-F',
      origin: 'Fuera',
      destination: 'Campa A-1',
    });
    expect((await server.put(task.id, { status: 'finalizada' }, manager)).status).toBe(200);
    const edit = await editTrailer('R-7-F', manager, {
      kind: 'frigorifico',
      load_state: 'cargado',
      adr: true,
      reefer_setpoint_c: -18,
    });
    expect(edit.status, edit.text).toBe(200);
    const marks = {
      kind: 'frigorifico',
      load_state: 'cargado',
      adr: true,
      reefer_setpoint_c: -18,
      damaged: false,
    };

    const list = await server.api().get('/api/yard/trailers').set(manager.auth);
    expect(list.status).toBe(200);
    expect((list.body as YardTrailer[]).find((t) => t.trailer_id === 'R-7-F')?.marks).toEqual(marks);
    const map = await server.api().get('/api/yard').set(manager.auth);
    expect(map.status).toBe(200);
    const spot = (map.body as YardLocation[]).find((l) => l.code === 'CA-1')!;
    expect(spot.trailers.map((t) => t.marks)).toEqual([marks]);

    const { res, wb } = await fetchWorkbook(
      server.api().get('/api/yard/trailers/export-excel').set(manager.auth),
    );
    expect(res.status).toBe(200);
    const { header, rows } = sheetTable(wb!.getWorksheet('Remolques en patio')!);
    const at = header.indexOf(TRAILER_EXCEL_HEADERS.trailerKind);
    expect(at).toBeGreaterThan(0);
    expect(rows[0]!.slice(at, at + 4)).toEqual(['Frigorífico', 'Cargado', 'Sí', -18]);
  });
});

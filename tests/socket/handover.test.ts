// `handover:changed {shift, date}` (CONTRACT §20): a handover note written or deleted reaches staff (their open
// Relevo pages read the shift again); drivers hear nothing; a refused note pushes nothing.
import { describe, expect, it } from 'vitest';
import type { HandoverNote } from '@shared/schemas';
import { shiftAt } from '@shared/shifts';
import { collect, liveServer, makeUser, nextEvent, now, sleep } from '../helpers/context';

const server = liveServer();

describe('handover:changed', () => {
  it('reaches staff when a note is written and when it is deleted; never drivers', async () => {
    const gestor = await makeUser('gestor');
    const manager = await makeUser('manager');
    const driver = await makeUser('conductor');
    const [sg, sm, sd] = await Promise.all([gestor, manager, driver].map((u) => server.connect(u.token)));
    const driverHears = collect(sd, 'handover:changed');

    const written = [nextEvent(sg, 'handover:changed'), nextEvent(sm, 'handover:changed')];
    const res = await server
      .api()
      .post('/api/handover/notes')
      .set(gestor.auth)
      .send({ text: 'Muelle 4 averiado' });
    expect(res.status, res.text).toBe(201);
    const note = res.body as HandoverNote;
    for (const p of written) expect(await p).toEqual({ shift: note.shift, date: note.date });
    expect({ shift: note.shift, date: note.date }).toEqual(shiftAt(now()));

    const quiet = collect(sm, 'handover:changed');
    expect((await server.api().post('/api/handover/notes').set(gestor.auth).send({ text: ' ' })).status).toBe(
      400,
    );
    expect((await server.api().delete(`/api/handover/notes/${note.id}`).set(manager.auth)).status).toBe(403);
    await sleep(150);
    expect(quiet).toEqual([]);

    const deleted = nextEvent(sm, 'handover:changed');
    expect((await server.api().delete(`/api/handover/notes/${note.id}`).set(gestor.auth)).status).toBe(204);
    expect(await deleted).toEqual({ shift: note.shift, date: note.date });
    await sleep(150);
    expect(driverHears).toEqual([]);
  });
});

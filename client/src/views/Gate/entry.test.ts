// The entry form's data rules (CONTRACT §19): the appointment typed as today's Madrid time, and the body
// sent with and without a trailer.
import { describe, expect, it } from 'vitest';
import { appointmentIso, emptyDraft, entryBody } from './entry';

describe('appointmentIso', () => {
  it('reads HH:MM as today in Madrid, in winter and in summer', () => {
    expect(appointmentIso('09:30', Date.parse('2026-11-27T10:00:00Z'))).toBe('2026-11-27T08:30:00.000Z');
    expect(appointmentIso('09:30', Date.parse('2026-07-01T10:00:00Z'))).toBe('2026-07-01T07:30:00.000Z');
    // Just after midnight in Madrid is already the next day there.
    expect(appointmentIso('00:15', Date.parse('2026-11-27T23:30:00Z'))).toBe('2026-11-27T23:15:00.000Z');
    expect(appointmentIso('', Date.now())).toBeNull();
  });
});

describe('entryBody', () => {
  const now = Date.parse('2026-11-27T10:00:00Z');
  const draft = { ...emptyDraft(), truck_plate: '1234BCD', carrier: 'Frío Sur', appointment: '12:00' };

  it('sends no trailer, place nor inspection for a truck without one', () => {
    expect(
      entryBody({ ...draft, location_id: 'x', items: { luces: { ok: false, note: 'x' } } }, now),
    ).toEqual({
      truck_plate: '1234BCD',
      carrier: 'Frío Sur',
      driver_name: null,
      appointment_at: '2026-11-27T11:00:00.000Z',
    });
  });

  it('sends the trailer with a setpoint typed with a comma, and no inspection when nothing was checked', () => {
    const body = entryBody(
      { ...draft, trailer_id: 'R-1', kind: 'frigorifico', reefer_setpoint_c: ' -2,5 ', location_id: 'loc' },
      now,
    );
    expect(body.trailer).toEqual({
      trailer_id: 'R-1',
      kind: 'frigorifico',
      load_state: 'desconocido',
      seal: null,
      reference: null,
      adr: false,
      reefer_setpoint_c: -2.5,
      location_id: 'loc',
    });
  });

  it('keeps a note only on an item that is not ok, and only uploaded photos', () => {
    const body = entryBody(
      {
        ...draft,
        trailer_id: 'R-1',
        location_id: 'loc',
        items: { puertas: { ok: true, note: 'left from before' }, chasis: { ok: false, note: '  ' } },
        photos: [
          { url: 'blob:1', status: 'done', id: 'p-1' },
          { url: 'blob:2', status: 'failed', id: null },
        ],
      },
      now,
    );
    expect(body.trailer?.inspection).toEqual({
      items: [
        { code: 'puertas', ok: true, note: null },
        { code: 'chasis', ok: false, note: null },
      ],
      photo_ids: ['p-1'],
    });
  });
});

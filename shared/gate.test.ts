import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { GATE_ERR, INSPECTION_ITEM_LABELS, UI_GATE } from './labels';
import {
  INSPECTION_CODES,
  gateEntrySchema,
  gateExitSchema,
  gateSuggestionsQuerySchema,
  gateVisitsQuerySchema,
  inspectionDamage,
  inspectionSchema,
  zodDetail,
} from './schemas';
import { alreadyInYardRefusal, stayS, waitS, waitTone } from './gate';
import { carrierKey } from './text';

const detail = (input: unknown): string => {
  const parsed = inspectionSchema.safeParse(input);
  if (parsed.success) throw new Error('expected a refusal');
  expect(parsed.error).toBeInstanceOf(ZodError);
  return zodDetail(parsed.error);
};

describe('the gate checklist (CONTRACT §19, §24)', () => {
  it('has the seven items with their codes and names, in order', () => {
    expect(INSPECTION_CODES.map((code) => [code, INSPECTION_ITEM_LABELS[code]])).toEqual([
      ['neumaticos', 'Neumáticos'],
      ['luces', 'Luces'],
      ['puertas', 'Puertas'],
      ['lona_techo', 'Lona / techo'],
      ['precinto', 'Precinto'],
      ['chasis', 'Chasis'],
      ['limpieza', 'Limpieza'],
    ]);
  });
});

describe('the inspection schema', () => {
  const photo = '7d3c1f9e-2b4a-4c8e-9f1a-0b2c3d4e5f60';

  it('takes items with or without notes and photo ids; photo_ids defaults to none', () => {
    expect(
      inspectionSchema.parse({
        items: [
          { code: 'luces', ok: false, note: '  Piloto\u200B trasero roto ' },
          { code: 'puertas', ok: true },
          { code: 'chasis', ok: true, note: '' },
        ],
        photo_ids: [photo],
      }),
    ).toEqual({
      items: [
        { code: 'luces', ok: false, note: 'Piloto trasero roto' },
        { code: 'puertas', ok: true, note: null },
        { code: 'chasis', ok: true, note: null },
      ],
      photo_ids: [photo],
    });
    expect(inspectionSchema.parse({ items: [] })).toEqual({ items: [], photo_ids: [] });
  });

  it('refuses an unknown code, naming it', () => {
    expect(detail({ items: [{ code: 'motor', ok: true }] })).toBe(
      'items.0.code: Elemento de la revisión desconocido: motor',
    );
  });

  it('refuses a code given twice', () => {
    expect(
      detail({
        items: [
          { code: 'luces', ok: true },
          { code: 'lona_techo', ok: true },
          { code: 'lona_techo', ok: false },
        ],
      }),
    ).toBe('items.2.code: El elemento Lona / techo aparece más de una vez en la revisión');
  });

  it('refuses an item without ok, a note over 1000 characters, and bad photo ids', () => {
    expect(detail({ items: [{ code: 'luces' }] })).toBe(
      'items.0.ok: Indica si cada elemento de la revisión está bien (ok: true o false)',
    );
    expect(
      inspectionSchema.safeParse({ items: [{ code: 'luces', ok: false, note: 'x'.repeat(1000) }] }).success,
    ).toBe(true);
    expect(detail({ items: [{ code: 'luces', ok: false, note: 'x'.repeat(1001) }] })).toBe(
      'items.0.note: La nota de un elemento admite como máximo 1000 caracteres',
    );
    expect(detail({ items: [], photo_ids: ['nope'] })).toBe('photo_ids.0: Foto no válida');
    expect(detail({ items: [], photo_ids: [photo, photo] })).toBe(
      'photo_ids: Una foto aparece más de una vez en la revisión',
    );
    expect(detail({ items: 'todo bien' })).toBe('items: La revisión debe ser una lista de elementos');
  });
});

describe('inspectionDamage: the damage an inspection marks (CONTRACT §19)', () => {
  it('lists the failed items in the checklist order, each with its note', () => {
    const inspection = inspectionSchema.parse({
      items: [
        { code: 'puertas', ok: false },
        { code: 'neumaticos', ok: true, note: 'Nuevos' },
        { code: 'luces', ok: false, note: 'Piloto trasero roto' },
      ],
    });
    expect(inspectionDamage(inspection)).toEqual({
      damaged: true,
      note: 'Luces (Piloto trasero roto), Puertas',
    });
  });

  it('marks no damage when every item checked is ok, or none is checked', () => {
    expect(inspectionDamage({ items: [{ code: 'luces', ok: true, note: 'Revisadas' }] })).toEqual({
      damaged: false,
      note: null,
    });
    expect(inspectionDamage({ items: [] })).toEqual({ damaged: false, note: null });
  });

  it('keeps the note within damage_note’s 1000 characters', () => {
    const items = INSPECTION_CODES.map((code) => ({ code, ok: false, note: 'n'.repeat(400) }));
    const { damaged, note } = inspectionDamage({ items });
    expect(damaged).toBe(true);
    expect(note).toHaveLength(1000);
    expect(note!.startsWith(`Neumáticos (${'n'.repeat(400)}), Luces (`)).toBe(true);
    expect(note!.endsWith('…')).toBe(true);
  });
});

describe('gate visit schemas (CONTRACT §19, §24)', () => {
  const place = '5b1c0f9e-2b4a-4c8e-9f1a-0b2c3d4e5f61';
  const visit = '6c2d1f9e-2b4a-4c8e-9f1a-0b2c3d4e5f62';

  it('cleans an entry: plates as identity keys, blanks to null, the trailer and its inspection', () => {
    expect(
      gateEntrySchema.parse({
        truck_plate: ' 1234-bcd ',
        carrier: ' Transportes\u200B García ',
        driver_name: '  ',
        trailer: {
          trailer_id: 'r-4136-fvr',
          load_state: 'cargado',
          seal: ' S-99 ',
          location_id: place,
          inspection: { items: [{ code: 'luces', ok: false, note: 'Piloto' }] },
        },
      }),
    ).toEqual({
      truck_plate: '1234-BCD',
      carrier: 'Transportes García',
      driver_name: null,
      appointment_at: null,
      trailer: {
        trailer_id: 'R-4136-FVR',
        load_state: 'cargado',
        seal: 'S-99',
        reference: null,
        location_id: place,
        inspection: { items: [{ code: 'luces', ok: false, note: 'Piloto' }], photo_ids: [] },
      },
    });
    expect(gateEntrySchema.parse({ truck_plate: 'X', carrier: 'Y' }).trailer).toBeUndefined();
  });

  it('refuses an entry without its required fields or over the limits of §24', () => {
    const refusal = (input: unknown) => {
      const parsed = gateEntrySchema.safeParse(input);
      if (parsed.success) throw new Error('expected a refusal');
      return zodDetail(parsed.error);
    };
    expect(refusal({ carrier: 'Y' })).toBe('truck_plate: El camión es obligatorio');
    expect(refusal({ truck_plate: 'X', carrier: '\u200B' })).toBe('carrier: El transportista es obligatorio');
    expect(gateEntrySchema.safeParse({ truck_plate: 'X', carrier: 'c'.repeat(120) }).success).toBe(true);
    expect(refusal({ truck_plate: 'X', carrier: 'c'.repeat(121) })).toBe(
      'carrier: El transportista admite como máximo 120 caracteres',
    );
    expect(refusal({ truck_plate: 'X', carrier: 'Y', driver_name: 'd'.repeat(121) })).toBe(
      'driver_name: El nombre del conductor admite como máximo 120 caracteres',
    );
    const trailer = { trailer_id: 'R-1', load_state: 'vacio', location_id: place };
    expect(refusal({ truck_plate: 'X', carrier: 'Y', trailer: { ...trailer, seal: 's'.repeat(121) } })).toBe(
      'trailer.seal: El precinto admite como máximo 120 caracteres',
    );
    expect(
      refusal({ truck_plate: 'X', carrier: 'Y', trailer: { ...trailer, reference: 'r'.repeat(121) } }),
    ).toBe('trailer.reference: La referencia admite como máximo 120 caracteres');
    expect(refusal({ truck_plate: 'X', carrier: 'Y', trailer: { ...trailer, load_state: 'lleno' } })).toBe(
      'trailer.load_state: Estado de carga no válido',
    );
    expect(refusal({ truck_plate: 'X', carrier: 'Y', trailer: { ...trailer, reefer_setpoint_c: -41 } })).toBe(
      'trailer.reefer_setpoint_c: La consigna del frigorífico debe estar entre -40 y 40 °C',
    );
    expect(refusal({ truck_plate: 'X', carrier: 'Y', appointment_at: 'mañana' })).toBe(
      'appointment_at: La hora de la cita no es válida',
    );
    expect(refusal({ truck_plate: 'X', carrier: 'Y', trailer: { ...trailer, location_id: 'M-1' } })).toBe(
      'trailer.location_id: Identificador no válido',
    );
  });

  it('takes an exit with or without a picked trailer', () => {
    expect(gateExitSchema.parse({ visit_id: visit })).toEqual({ visit_id: visit });
    expect(gateExitSchema.parse({ visit_id: visit, trailer: { trailer_id: 'r-9', seal: '' } })).toEqual({
      visit_id: visit,
      trailer: { trailer_id: 'R-9', seal: null },
    });
    expect(gateExitSchema.safeParse({ visit_id: 'x' }).success).toBe(false);
  });

  it('lists visits by open=true or by date, one of the two', () => {
    expect(gateVisitsQuerySchema.parse({ open: 'true' })).toEqual({ open: true });
    expect(gateVisitsQuerySchema.parse({ date: '2026-11-27' })).toEqual({ date: '2026-11-27' });
    for (const bad of [{}, { open: 'false' }, { open: 'true', date: '2026-11-27' }, { date: '2026-13-01' }])
      expect(gateVisitsQuerySchema.safeParse(bad).success).toBe(false);
    expect(zodDetail(gateVisitsQuerySchema.safeParse({}).error!)).toBe('Indica open=true o date=AAAA-MM-DD');
  });

  it('defaults the suggestions query to an unknown load of another kind', () => {
    expect(gateSuggestionsQuerySchema.parse({})).toEqual({ load_state: 'desconocido', kind: 'otro' });
    expect(gateSuggestionsQuerySchema.parse({ load_state: 'cargado', kind: 'lona' })).toEqual({
      load_state: 'cargado',
      kind: 'lona',
    });
    expect(gateSuggestionsQuerySchema.safeParse({ kind: 'barco' }).success).toBe(false);
  });
});

describe('the gate refusals (CONTRACT §19, verbatim)', () => {
  it('has every text of §19', () => {
    expect(GATE_ERR.locationFull('Muelle 10')).toBe('La ubicación Muelle 10 está completa');
    expect(GATE_ERR.gateHoldsNoTrailer).toBe('Un remolque no puede quedarse en una puerta');
    expect(GATE_ERR.unknownLocation).toBe('Ubicación desconocida');
    expect(GATE_ERR.alreadyInYard('R-1', 'Campa 3')).toBe('El remolque R-1 ya está en el patio (Campa 3)');
    expect(UI_GATE.exitThereAndEnter).toBe('Dar salida allí y registrar la entrada');
    expect(GATE_ERR.pendingMove).toBe('El remolque tiene un movimiento pendiente');
    expect(GATE_ERR.notInYard('R-1')).toBe('El remolque R-1 no está en el patio');
    expect(GATE_ERR.visitClosed).toBe('La visita ya está cerrada');
  });

  it('reads the trailer and place back from `ya está en el patio`', () => {
    expect(alreadyInYardRefusal(GATE_ERR.alreadyInYard('R-4136-FVR', 'Campa (B) 3'))).toEqual({
      trailer_id: 'R-4136-FVR',
      place: 'Campa (B) 3',
    });
    expect(alreadyInYardRefusal(GATE_ERR.locationFull('Muelle 1'))).toBeNull();
    expect(alreadyInYardRefusal(null)).toBeNull();
  });
});

describe('waiting times (CONTRACT §19: RDL 3/2022)', () => {
  const at = (hhmm: string) => `2026-11-27T${hhmm}:00.000Z`;
  const now = Date.parse(at('12:00'));
  const open = { entered_at: at('09:00'), exited_at: null, appointment_at: null };

  it('counts an open visit’s stay and wait to now, a closed one’s to its exit', () => {
    expect(stayS(open, now)).toBe(3 * 3600);
    expect(waitS(open, now)).toBe(3 * 3600);
    const closed = { ...open, exited_at: at('10:30') };
    expect(stayS(closed, now)).toBe(5400);
    expect(waitS(closed, now)).toBe(5400);
  });

  it('counts the wait from the appointment when it is later than the arrival', () => {
    expect(waitS({ ...open, appointment_at: at('11:15') }, now)).toBe(45 * 60);
    expect(waitS({ ...open, appointment_at: at('08:00') }, now)).toBe(3 * 3600);
    // Early for a later appointment: no wait yet, the stay still ticks.
    expect(waitS({ ...open, appointment_at: at('13:00') }, now)).toBe(0);
    expect(stayS({ ...open, appointment_at: at('13:00') }, now)).toBe(3 * 3600);
  });

  it('is plain up to 1 h, amber past it, red past 2 h', () => {
    expect([0, 3600, 3601, 7200, 7201].map(waitTone)).toEqual(['none', 'none', 'amber', 'amber', 'red']);
  });
});

describe('carrierKey: carriers grouped by their folded name (CONTRACT §19)', () => {
  it('folds compatibility forms, case, accents and repeated spaces', () => {
    const key = carrierKey('Transportes García');
    for (const s of ['TRANSPORTES GARCIA', ' transportes  garcía ', 'Ｔransportes Garcí\u0301a'])
      expect(carrierKey(s)).toBe(key);
    expect(key).toBe('TRANSPORTES GARCIA');
    expect(carrierKey('Transportes Garcés')).not.toBe(key);
  });
});

import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { INSPECTION_ITEM_LABELS } from './labels';
import { INSPECTION_CODES, inspectionDamage, inspectionSchema, zodDetail } from './schemas';

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

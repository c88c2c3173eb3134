import { describe, expect, it } from 'vitest';
import { csvDelimiter, decodeCsvFile } from './csv';

/** Windows-1252 bytes of a text made of Latin-1 letters and the en dash (0x96 in 1252, a C1 control in Latin-1). */
const cp1252 = (text: string) => Uint8Array.from([...text].map((c) => (c === '–' ? 0x96 : c.charCodeAt(0))));

describe('decodeCsvFile', () => {
  it('reads UTF-8 as UTF-8 and drops its BOM', () => {
    const bytes = new TextEncoder().encode('\uFEFFcode;name\nA-1;Almacén – Norte');
    expect(decodeCsvFile(bytes)).toBe('code;name\nA-1;Almacén – Norte');
  });

  it('reads what is not valid UTF-8 as Windows-1252 (Excel in Spain): Almacén, not Almac�n', () => {
    const text = decodeCsvFile(cp1252('code;name\nA-1;Almacén – Peñíscola Nº 2'));
    expect(text).toBe('code;name\nA-1;Almacén – Peñíscola Nº 2');
    expect(text).not.toContain('\uFFFD');
  });

  it('drops a UTF-8 BOM in front of otherwise Windows-1252 bytes', () => {
    const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, ...cp1252('name\nCampaña')]);
    expect(decodeCsvFile(bytes)).toBe('name\nCampaña');
  });

  it('plain ASCII is the same either way', () => {
    expect(decodeCsvFile(new TextEncoder().encode('a,b\n1,2'))).toBe('a,b\n1,2');
  });
});

describe('csvDelimiter', () => {
  it('is ; when the header has more ; than , (a name with a comma in a ;-file too)', () => {
    expect(csvDelimiter('code;name;kind\nA;Muelle 1, norte;muelle')).toBe(';');
    expect(csvDelimiter('\uFEFFcode;name;kind,x')).toBe(';');
  });

  it('is , otherwise', () => {
    expect(csvDelimiter('code,name,kind\nA;B,C')).toBe(',');
    expect(csvDelimiter('code;name,kind,x')).toBe(',');
    expect(csvDelimiter('')).toBe(',');
  });
});

import { describe, expect, it } from 'vitest';
import { cleanMultiline, cleanText, fold, hasControlChars, identityKey, placeKey, plateKey } from './text';

describe('text normalisation (CONTRACT §14)', () => {
  it('strips NUL, zero-width and bidi-override characters and trims', () => {
    expect(cleanText(' DUP-1\u200B ')).toBe('DUP-1');
    expect(cleanText('Mue\u0000lle\u202E 3')).toBe('Muelle 3');
    expect(cleanText('\uFEFFCampa')).toBe('Campa');
  });

  it('stores NFC: a decomposed accent becomes one character', () => {
    expect(cleanText('Cami\u006F\u0301n')).toBe('Camión');
    expect(cleanText('Cami\u006F\u0301n')).toHaveLength(6);
  });

  it('keeps line breaks and tabs in multi-line text only', () => {
    expect(cleanMultiline('línea 1\r\nlínea\t2\u200B')).toBe('línea 1\nlínea\t2');
    expect(cleanText('a\nb')).toBe('ab');
  });

  it('folds width and case for identity', () => {
    expect(identityKey('ＤＵＰ－１')).toBe('DUP-1');
    expect(identityKey('dup-1\u200B')).toBe(identityKey('DUP-1'));
    expect(identityKey('Ñ-1')).toBe('Ñ-1');
  });

  it('detects control characters', () => {
    expect(hasControlChars('abc\u0007')).toBe(true);
    expect(hasControlChars('contraseña segura')).toBe(false);
  });

  it('folds accents and case for comparisons, and place names to one key', () => {
    expect(fold('Báscula Ñ')).toBe('bascula n');
    expect(placeKey('  MUELLE   12\u200B')).toBe(placeKey('Muelle 12'));
    expect(placeKey('Báscula')).toBe(placeKey('bascula'));
    expect(placeKey('Muelle 12')).not.toBe(placeKey('Muelle 1'));
  });
});

describe('plateKey (CONTRACT §19)', () => {
  it('folds case, accents, spaces, dots and dashes into one key', () => {
    const key = plateKey('R-4136-FVR');
    expect(key).toBe('R4136FVR');
    for (const spelling of [
      'r4136fvr',
      'R 4136 FVR',
      'R.4136.FVR',
      ' r–4136—fvr ',
      'R\u200b-4136-FVR',
      'Ŕ-4136-FVR',
    ])
      expect(plateKey(spelling), spelling).toBe(key);
  });
  it('keeps apart what differs in letters or digits', () => {
    expect(plateKey('R-4136-FVR')).not.toBe(plateKey('R-4136-FVS'));
    expect(plateKey('R/4136')).toBe('R/4136');
    // Full-width forms are folded by NFKC first.
    expect(plateKey('Ｒ４１３６')).toBe('R4136');
  });
});

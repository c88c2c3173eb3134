import { describe, expect, it } from 'vitest';
import { plateMatch } from './text';

describe('plateMatch (CONTRACT §19 plate key)', () => {
  it('folds case, accents, spaces, dots and dashes on both sides', () => {
    for (const typed of ['r4136fvr', 'R 4136 FVR', 'R-4136-FVR', '4136.fvr', 'r–4136', 'FVR', ' 36f '])
      expect(plateMatch(typed, 'R-4136-FVR'), typed).toBe(true);
    expect(plateMatch('ÉX-12', 'EX 12')).toBe(true);
    // Fullwidth characters fold through the NFKC key.
    expect(plateMatch('Ｒ４１３６', 'R-4136-FVR')).toBe(true);
  });

  it('needs the folded text inside the plate; an empty or separator-only text matches nothing', () => {
    expect(plateMatch('4137', 'R-4136-FVR')).toBe(false);
    expect(plateMatch('R-4136-FVRX', 'R-4136-FVR')).toBe(false);
    expect(plateMatch('', 'R-4136-FVR')).toBe(false);
    expect(plateMatch(' - . ', 'R-4136-FVR')).toBe(false);
  });
});

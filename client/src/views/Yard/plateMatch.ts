// The Patio's plate search (CONTRACT §19): a plate is matched by its key, folded as §19's plate key folds
// it — §14's NFKC identity key with case, accents, spaces, dots and dashes away — so `r4136fvr`,
// `R 4136 FVR` and `4136.fvr` all find `R-4136-FVR`.
import { fold, identityKey } from '@shared/text';

/** Spaces, dots and every dash or hyphen (`-`, `‐`, `–`, `—`, `−`…). */
const SEPARATORS = /[\s.\p{Pd}\u2212]/gu;

const key = (plate: string): string => fold(identityKey(plate)).replace(SEPARATORS, '');

/** Whether the plate contains the text typed, both folded; an empty text matches nothing. */
export function plateMatch(query: string, plate: string): boolean {
  const q = key(query);
  return q !== '' && key(plate).includes(q);
}

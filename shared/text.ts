// Text as people type it (CONTRACT §14): stored in Unicode NFC without control or format characters
// (NUL, zero-width spaces, bidi overrides), compared for identity through an NFKC upper-cased key, so
// `DUP-1` and `DUP-1` + a zero-width space are one trailer.

/** Control (Cc) and format (Cf) characters: invisible, or able to reorder what a screen shows. */
const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}]/gu;
/** The same, keeping the line breaks and tabs of a multi-line text. */
const CONTROL_OR_FORMAT_BUT_LINES = /(?![\n\t])[\p{Cc}\p{Cf}]/gu;

export const hasControlChars = (s: string): boolean => /[\p{Cc}\p{Cf}]/u.test(s);

/** One-line text: NFC, invisible characters removed, trimmed. */
export const cleanText = (s: string): string => s.normalize('NFC').replace(CONTROL_OR_FORMAT, '').trim();

/** Multi-line text (a description): as cleanText, but line breaks and tabs stay. */
export const cleanMultiline = (s: string): string =>
  s.replace(/\r\n?/g, '\n').normalize('NFC').replace(CONTROL_OR_FORMAT_BUT_LINES, '').trim();

/** The key that decides identity (trailers, location codes): compatibility-folded and upper-cased. */
export const identityKey = (s: string): string => cleanText(s).normalize('NFKC').toUpperCase();

/** Accents and case folded (`Báscula` → `bascula`): the searcher's and the yard catalogue's comparisons. */
export const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The key a place name is matched by (CONTRACT §17): cleaned, folded, inner spaces collapsed, so
 * `muelle  12`, `MUELLE 12` and `Muelle 12` are one place — and `muelle-12` matches the code `MUELLE-12`.
 */
export const placeKey = (s: string): string => fold(cleanText(s).normalize('NFKC')).replace(/\s+/g, ' ');

/** Dots, dashes and spaces: what a plate's spellings differ by (`R-4136-FVR`, `R 4136 FVR`, `R.4136.FVR`). */
const PLATE_SEPARATORS = /[\s.\p{Pd}]/gu;

/**
 * A trailer's identity (CONTRACT §19): its plate's identityKey() with accents, spaces, dots and dashes
 * folded away, so `R-4136-FVR`, `r4136fvr` and `R 4136 FVR` are one trailer (`R4136FVR`). The
 * PostgreSQL migration that re-keyed existing rows has its SQL twin, torre_plate_key() (docs/GATE.md).
 */
export const plateKey = (s: string): string =>
  identityKey(s).normalize('NFD').replace(/\p{M}/gu, '').replace(PLATE_SEPARATORS, '').toUpperCase();

/** Whether a plate's key holds the key of the text typed (a search box); an empty text matches nothing. */
export function plateMatch(query: string, plate: string): boolean {
  const q = plateKey(query);
  return q !== '' && plateKey(plate).includes(q);
}
/**
 * The key carriers are grouped by (CONTRACT §19): NFKC, upper case, accents away, inner spaces collapsed,
 * so `Transportes García`, `TRANSPORTES GARCIA` and `transportes  garcía` are one carrier.
 */
export const carrierKey = (s: string): string =>
  identityKey(s).normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC').toUpperCase().replace(/\s+/g, ' ');

// Natural order of names as people number them (CONTRACT §19: suggestions in natural order): digits compare
// as numbers, so `Muelle 2` comes before `Muelle 10`; accents and case aside (`Báscula` = `bascula`).

const collator = new Intl.Collator('es', { numeric: true, sensitivity: 'base' });

/** Compares two names in natural order (a comparator for Array.prototype.sort). */
export const compareNatural = (a: string, b: string): number => collator.compare(a, b);

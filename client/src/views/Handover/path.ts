/** The Relevo de turno's own URL (CONTRACT §20): the staff shell on the handover, printable from there. */
export const HANDOVER_PATH = '/relevo';

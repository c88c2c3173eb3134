/** The Portería's own URL (CONTRACT §19): a gate tablet boots into the staff shell on the Portería. */
export const GATE_PATH = '/porteria';

/** The Patio's own URL (CONTRACT §17): a bookmark or a wall screen opens the staff shell on the Patio. */
export const PATIO_PATH = '/patio';

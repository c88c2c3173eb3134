/** The wall screen's own URL (CONTRACT §15): a kiosk boots straight into it, a reload keeps it. */
export const WALL_PATH = '/pantalla';

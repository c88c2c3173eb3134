/** CONTRACT §20: the A4 sheet of the places' QR labels (Ubicaciones → Imprimir etiquetas). */
export const LABELS_PATH = '/ubicaciones/etiquetas';

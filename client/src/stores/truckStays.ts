// Informes → Tiempos de espera (CONTRACT §19 "Waiting times", §24: admin and manager): the carriers' waits
// of the trucks that left between two Madrid days (GET /admin/reports/truck-stays) and its Excel.
import type { TruckStaysReport } from '@shared/schemas';
import { TRUCK_STAYS_EXCEL } from '@shared/labels';
import { createRangeReport } from './range-report';

export const {
  useReport: useTruckStays,
  load: loadTruckStays,
  setRange: setTruckStaysRange,
  exportExcel: exportTruckStays,
} = createRangeReport<TruckStaysReport>({
  path: '/admin/reports/truck-stays',
  fileName: TRUCK_STAYS_EXCEL.fileName,
  extra: {},
});

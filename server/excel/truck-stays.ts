// tiempos_espera_{from}_{to}.xlsx (CONTRACT §19 "Waiting times"): the carriers' waits of the period and the
// visits whose wait passed 1 h, as GET /admin/reports/truck-stays answers them (minutes in the cells).
import type ExcelJS from 'exceljs';
import type { CarrierWaits, GateVisit, TruckStaysQuery } from '@shared/schemas';
import { TRUCK_STAYS_EXCEL } from '@shared/labels';
import { truckStays } from '../services/gate';
import { addTableSheet, newWorkbook } from './workbook';

const { headers } = TRUCK_STAYS_EXCEL;
const minutes = (s: number) => s / 60;

export async function truckStaysWorkbook(q: TruckStaysQuery): Promise<ExcelJS.Workbook> {
  const report = await truckStays(q);
  const wb = newWorkbook();
  addTableSheet<CarrierWaits>(
    wb,
    TRUCK_STAYS_EXCEL.carriersSheet,
    [
      { header: headers.carrier, kind: 'text', value: (c) => c.carrier },
      { header: headers.visits, kind: 'integer', value: (c) => c.visits },
      { header: headers.p50, kind: 'minutes', value: (c) => minutes(c.p50_s) },
      { header: headers.p90, kind: 'minutes', value: (c) => minutes(c.p90_s) },
      { header: headers.max, kind: 'minutes', value: (c) => minutes(c.max_s) },
      { header: headers.over1h, kind: 'integer', value: (c) => c.over_1h },
    ],
    report.carriers,
  );
  addTableSheet<GateVisit>(
    wb,
    TRUCK_STAYS_EXCEL.visitsSheet,
    [
      { header: headers.carrier, kind: 'text', value: (v) => v.carrier },
      { header: headers.truck, kind: 'text', value: (v) => v.truck_plate },
      { header: headers.driver, kind: 'text', value: (v) => v.driver_name },
      { header: headers.appointment, kind: 'datetime', value: (v) => v.appointment_at },
      { header: headers.entered, kind: 'datetime', value: (v) => v.entered_at },
      { header: headers.exited, kind: 'datetime', value: (v) => v.exited_at },
      { header: headers.stay, kind: 'minutes', value: (v) => minutes(v.stay_s) },
      { header: headers.wait, kind: 'minutes', value: (v) => minutes(v.wait_s) },
      { header: headers.dropped, kind: 'text', value: (v) => v.dropped_trailer_id },
      { header: headers.picked, kind: 'text', value: (v) => v.picked_trailer_id },
    ],
    report.visits,
  );
  return wb;
}

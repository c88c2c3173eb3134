// The waiting-times report (issue 27, CONTRACT §19 "Waiting times", §24): closed visits by the Madrid day of
// their exit, per carrier folded by carrierKey (median, p90, longest wait, how many passed 1 h), the visits
// past 1 h, and its Excel tiempos_espera_{from}_{to}.xlsx. Runs on both engines (server-pg).
import { beforeEach, describe, expect, it } from 'vitest';
import type { TruckStaysReport } from '@shared/schemas';
import { TRUCK_STAYS_EXCEL } from '@shared/labels';
import { carrierKey } from '@shared/text';
import { gateVisits } from '../../server/db/tables';
import { db, makeUser, setupApp, tx, type TestUser } from '../helpers/context';
import { fetchWorkbook, sheetTable } from '../helpers/excel';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let manager: TestUser;
beforeEach(async () => {
  ({ api } = await setupApp());
  manager = await makeUser('manager');
  const visit = (
    carrier: string,
    entered: string,
    exited: string | null,
    appointment: string | null = null,
  ) => ({
    id: crypto.randomUUID(),
    truckPlate: `T-${carrier.length}-${entered}`,
    carrier,
    carrierKey: carrierKey(carrier),
    appointmentAt: appointment ? new Date(appointment) : null,
    enteredAt: new Date(entered),
    exitedAt: exited ? new Date(exited) : null,
  });
  await tx(() =>
    db.insert(gateVisits).values([
      visit('Transportes Pérez', '2026-11-20T10:00:00Z', '2026-11-20T10:30:00Z'),
      visit('TRANSPORTES PEREZ', '2026-11-20T11:00:00Z', '2026-11-20T12:30:00Z'),
      // Arrived early: the wait counts from the appointment (RDL 3/2022).
      visit('Transportes Pérez', '2026-11-20T08:00:00Z', '2026-11-20T11:00:00Z', '2026-11-20T09:00:00Z'),
      visit('Otra', '2026-11-19T23:50:00Z', '2026-11-20T00:00:00Z'),
      // Outside: its exit is on Madrid's 22nd; an open visit.
      visit('Otra', '2026-11-21T22:00:00Z', '2026-11-21T23:30:00Z'),
      visit('Otra', '2026-11-20T09:00:00Z', null),
    ]),
  );
});

describe('truck stays', () => {
  it('groups carriers by their folded key, with p50, p90, max and over 1 h; lists the visits past 1 h', async () => {
    const res = await api()
      .get('/api/admin/reports/truck-stays?from=2026-11-20&to=2026-11-21')
      .set(manager.auth);
    expect(res.status, res.text).toBe(200);
    const report = res.body as TruckStaysReport;
    expect(report.period).toEqual({ from: '2026-11-20', to: '2026-11-21' });
    expect(report.carriers).toEqual([
      { carrier: 'Transportes Pérez', visits: 3, p50_s: 5400, p90_s: 7200, max_s: 7200, over_1h: 2 },
      { carrier: 'Otra', visits: 1, p50_s: 600, p90_s: 600, max_s: 600, over_1h: 0 },
    ]);
    expect(report.visits.map((v) => [v.carrier, v.wait_s, v.stay_s])).toEqual([
      ['Transportes Pérez', 7200, 10800],
      ['TRANSPORTES PEREZ', 5400, 5400],
    ]);
  });

  it('refuses a missing or reversed period (400) and anyone but admin and manager (403)', async () => {
    expect((await api().get('/api/admin/reports/truck-stays?from=2026-11-20').set(manager.auth)).status).toBe(
      400,
    );
    const reversed = await api()
      .get('/api/admin/reports/truck-stays?from=2026-11-21&to=2026-11-20')
      .set(manager.auth);
    expect(reversed.status).toBe(400);
    expect(reversed.body.detail).toBe('La fecha hasta no puede ser anterior a la fecha desde');
    const gestor = await makeUser('gestor');
    expect(
      (await api().get('/api/admin/reports/truck-stays?from=2026-11-20&to=2026-11-20').set(gestor.auth))
        .status,
    ).toBe(403);
  });

  it('tiempos_espera_{from}_{to}.xlsx: the carriers and the long waits, in minutes', async () => {
    const { res, wb } = await fetchWorkbook(
      api()
        .get('/api/admin/reports/truck-stays/export-excel?from=2026-11-20&to=2026-11-21')
        .set(manager.auth),
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="tiempos_espera_2026-11-20_2026-11-21.xlsx"',
    );
    expect(wb!.worksheets.map((w) => w.name)).toEqual([
      TRUCK_STAYS_EXCEL.carriersSheet,
      TRUCK_STAYS_EXCEL.visitsSheet,
    ]);
    const carriers = sheetTable(wb!.getWorksheet(TRUCK_STAYS_EXCEL.carriersSheet)!);
    expect(carriers.header[0]).toBe('Transportista');
    expect(carriers.rows[0]).toEqual(['Transportes Pérez', 3, 90, 120, 120, 2]);
    const visits = sheetTable(wb!.getWorksheet(TRUCK_STAYS_EXCEL.visitsSheet)!);
    expect(visits.rows).toHaveLength(2);
  });
});

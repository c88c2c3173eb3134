// Informes → Tiempos de espera (CONTRACT §19 "Waiting times"): a range of Madrid days (the last 7 through
// today by default, the period presets or two typed days), the carriers' waits (visits, p50, p90, max, over 1 h), the visits whose wait passed
// 1 h, and `Exportar Excel` of the same range.
import type { ReactNode } from 'react';
import { Timer } from 'lucide-react';
import { UI_TRUCK_STAYS } from '@shared/labels';
import { truckStaysQuerySchema } from '@shared/schemas';
import { formatDateTime, formatDuration, madridDay } from '@shared/time';
import { Card } from '../../components/Card';
import { ExcelButton } from '../../components/ExcelButton';
import { FormAlert } from '../../components/FormAlert';
import { PeriodPicker } from '../../components/PeriodPicker';
import { useRangeReport } from '../../components/useRangeReport';
import { exportTruckStays, loadTruckStays, setTruckStaysRange, useTruckStays } from '../../stores/truckStays';
import { serverNow } from '../../stores/timeclock';

const T = UI_TRUCK_STAYS;
const seconds = (s: number) => formatDuration(s * 1000);
const th = 'px-3 py-2 text-left font-semibold text-slate-600';
const td = 'px-3 py-2 tabular-nums';
const CARRIER_HEADERS = Object.values(T.columns);
const VISIT_HEADERS = Object.values(T.visit);

/** A small table: its headers, then the rows given. */
function Table({
  label,
  headers,
  children,
}: {
  label: string;
  headers: readonly string[];
  children: ReactNode;
}) {
  return (
    <table className="w-full min-w-[32rem] text-sm" aria-label={label}>
      <thead className="border-b border-slate-200">
        <tr>
          {headers.map((h) => (
            <th key={h} className={th}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">{children}</tbody>
    </table>
  );
}

export function TruckStays() {
  const { from, to, shown, failed, problem } = useRangeReport(
    useTruckStays,
    loadTruckStays,
    truckStaysQuerySchema,
    T.loadError,
  );
  return (
    <Card
      title={T.title}
      icon={<Timer aria-hidden className="size-5" />}
      actions={
        <ExcelButton
          download={exportTruckStays}
          texts={{ label: T.exportExcel, done: T.exported, failed: T.exportError }}
          disabled={problem !== null}
        />
      }
    >
      <section aria-label={T.title} className="space-y-4">
        <p className="text-sm text-slate-500">{T.subtitle}</p>
        <PeriodPicker value={{ from, to }} today={madridDay(serverNow())} onChange={setTruckStaysRange} />
        {problem && <FormAlert>{problem}</FormAlert>}
        {!problem && failed && !shown && <FormAlert>{T.loadError}</FormAlert>}
        {shown && (
          <>
            <div className="overflow-x-auto">
              <Table label={T.carriers} headers={CARRIER_HEADERS}>
                {shown.carriers.map((c) => (
                  <tr key={c.carrier} data-testid="carrier-waits">
                    <td className="px-3 py-2 font-medium text-slate-900">{c.carrier}</td>
                    <td className={td}>{c.visits}</td>
                    <td className={td}>{seconds(c.p50_s)}</td>
                    <td className={td}>{seconds(c.p90_s)}</td>
                    <td className={td}>{seconds(c.max_s)}</td>
                    <td className={`${td} ${c.over_1h ? 'font-semibold text-red-700' : ''}`}>{c.over_1h}</td>
                  </tr>
                ))}
              </Table>
              {shown.carriers.length === 0 && <p className="px-3 py-2 text-slate-500">{T.noVisits}</p>}
            </div>
            <div className="space-y-2">
              <h3 className="text-sm font-semibold text-slate-900">{T.longWaits}</h3>
              {shown.visits.length === 0 ? (
                <p className="text-sm text-slate-500">{T.noLongWaits}</p>
              ) : (
                <div className="overflow-x-auto">
                  <Table label={T.longWaits} headers={VISIT_HEADERS}>
                    {shown.visits.map((v) => (
                      <tr key={v.id} data-testid="long-wait">
                        <td className="px-3 py-2 font-mono font-semibold">{v.truck_plate}</td>
                        <td className="px-3 py-2">{v.carrier}</td>
                        <td className={td}>{formatDateTime(v.entered_at)}</td>
                        <td className={td}>{v.exited_at ? formatDateTime(v.exited_at) : ''}</td>
                        <td className={`${td} font-semibold text-red-700`}>{seconds(v.wait_s)}</td>
                      </tr>
                    ))}
                  </Table>
                </div>
              )}
            </div>
          </>
        )}
      </section>
    </Card>
  );
}

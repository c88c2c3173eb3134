// Informes → Tiempos de espera (CONTRACT §19 "Waiting times"): a range of Madrid days (the last 7 through
// today by default, the period presets or two typed days), the carriers' waits (visits, p50, p90, max, over 1 h), the visits whose wait passed
// 1 h, and `Exportar Excel` of the same range.
import { useEffect, type ReactNode } from 'react';
import { Download, Timer } from 'lucide-react';
import { UI_TRUCK_STAYS } from '@shared/labels';
import { truckStaysQuerySchema, zodDetail } from '@shared/schemas';
import { formatDateTime, formatDuration, madridDay } from '@shared/time';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { FormAlert } from '../../components/FormAlert';
import { PeriodPicker } from '../../components/PeriodPicker';
import { useDownload } from '../../components/useDownload';
import { toastError } from '../../toast';
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
  const from = useTruckStays((s) => s.from);
  const to = useTruckStays((s) => s.to);
  const report = useTruckStays((s) => s.report);
  const failed = useTruckStays((s) => s.failed);
  const excel = useDownload(exportTruckStays, { done: T.exported, failed: T.exportError });
  const parsed = truckStaysQuerySchema.safeParse({ from, to });
  const problem = parsed.success ? null : zodDetail(parsed.error);

  useEffect(() => {
    if (problem) return;
    loadTruckStays().catch((err: unknown) => toastError(err, T.loadError));
  }, [from, to, problem]);

  const shown = report && report.period.from === from && report.period.to === to ? report : null;
  return (
    <Card
      title={T.title}
      icon={<Timer aria-hidden className="size-5" />}
      actions={
        <Button
          variant="secondary"
          loading={excel.busy}
          disabled={problem !== null}
          onClick={() => void excel.run()}
        >
          <Download aria-hidden className="size-4" />
          {T.exportExcel}
        </Button>
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

// The Excel export dialog of Control Conductores and of Analytics (SPEC §2, §5): the period presets
// (issue 30) fill 'Fecha Desde' and 'Fecha Hasta', both required ('Debes seleccionar ambas fechas'),
// 'Descargar Excel' disabled until both are set, and the file named from the two days (CONTRACT §8).
import { useState, type FormEvent } from 'react';
import { Download, FileSpreadsheet } from 'lucide-react';
import { toast } from 'sonner';
import { dateRangeQuerySchema, zodDetail } from '@shared/schemas';
import { UI_COMMON, UI_EXPORT, UI_PERIOD } from '@shared/labels';
import { madridDay } from '@shared/time';
import { api } from '../../api';
import { Button } from '../../components/Button';
import { Field, inputClass } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { PresetButtons } from '../../components/PeriodPicker';
import { serverNow } from '../../stores/timeclock';
import { toastError } from '../../toast';

export interface ExcelExport {
  title: string;
  description: string;
  /** What the workbook holds, listed in the dialog. */
  contents: readonly string[];
  /** API path of the xlsx answer; it takes date_from and date_to. */
  path: string;
  fileName: (from: string, to: string) => string;
  successToast: string;
  errorToast: string;
}

/** The SPEC §5 rule, through the shared schema the server applies: both days, in order. */
export function checkRange(from: string, to: string): string | null {
  const parsed = dateRangeQuerySchema.safeParse({ date_from: from, date_to: to });
  return parsed.success ? null : zodDetail(parsed.error);
}

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  exportSpec: ExcelExport;
}

export function ExcelExportDialog({ open, onOpenChange, exportSpec }: Props) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const problem = checkRange(from, to);
  const bothSet = Boolean(from && to);

  const download = async (e?: FormEvent) => {
    e?.preventDefault();
    if (problem) return void toast.error(problem);
    setBusy(true);
    try {
      await api.download(exportSpec.path, exportSpec.fileName(from, to), { date_from: from, date_to: to });
      toast.success(exportSpec.successToast);
      onOpenChange(false);
    } catch (err) {
      toastError(err, exportSpec.errorToast);
    } finally {
      setBusy(false);
    }
  };

  const formId = `export-${exportSpec.path.replace(/\W+/g, '-')}`;
  return (
    <Modal
      open={open}
      onOpenChange={(o) => !busy && onOpenChange(o)}
      dismissible={!busy}
      title={exportSpec.title}
      description={exportSpec.description}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={busy}>
            {UI_COMMON.cancel}
          </Button>
          <Button
            type="submit"
            form={formId}
            variant="success"
            loading={busy}
            disabled={!bothSet || problem !== null}
          >
            {!busy && <Download aria-hidden className="size-4" />}
            {UI_EXPORT.download}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(e) => void download(e)} className="space-y-4">
        {/* Issue 30: the usual ranges in one tap; the two days stay editable (and required). */}
        <div role="group" aria-label={UI_PERIOD.period} className="flex flex-wrap gap-2">
          <PresetButtons
            value={{ from, to }}
            today={madridDay(serverNow())}
            onPick={(range) => {
              setFrom(range.from);
              setTo(range.to);
            }}
          />
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label={UI_EXPORT.dateFrom}>
            {(control) => (
              <input
                {...control}
                type="date"
                required
                value={from}
                max={to || undefined}
                onChange={(e) => setFrom(e.target.value)}
                className={inputClass}
              />
            )}
          </Field>
          <Field label={UI_EXPORT.dateTo}>
            {(control) => (
              <input
                {...control}
                type="date"
                required
                value={to}
                min={from || undefined}
                onChange={(e) => setTo(e.target.value)}
                className={inputClass}
              />
            )}
          </Field>
        </div>
        {problem && (
          <p
            data-testid="export-problem"
            className={bothSet ? 'text-sm text-red-600' : 'text-sm text-slate-500'}
            role={bothSet ? 'alert' : undefined}
          >
            {problem}
          </p>
        )}
        <div className="rounded-lg bg-emerald-50/70 p-3 ring-1 ring-emerald-600/15">
          <p className="flex items-center gap-2 text-sm font-semibold text-emerald-900">
            <FileSpreadsheet aria-hidden className="size-4" />
            {UI_EXPORT.contents}
          </p>
          <ul className="mt-2 list-disc space-y-1 pl-6 text-sm text-slate-700">
            {exportSpec.contents.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <p className="mt-2 text-xs text-slate-500">{UI_EXPORT.timezone}</p>
        </div>
      </form>
    </Modal>
  );
}

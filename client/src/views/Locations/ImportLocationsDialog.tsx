import { useId, useState, type FormEvent } from 'react';
import { FileUp } from 'lucide-react';
import { toast } from 'sonner';
import { LOCATION_KINDS } from '@shared/enums';
import { LOCATION_CSV_COLUMNS, UI_COMMON, UI_LOCATIONS, YARD_ERR } from '@shared/labels';
import { decodeCsvFile } from '@shared/csv';
import { importLocationsSchema } from '@shared/schemas';
import { ApiError, errorText } from '../../api';
import { Button } from '../../components/Button';
import { Field, inputClass } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { cn } from '../../components/cn';
import { useLocations } from '../../stores/locations';
import { FormAlert } from '../../components/FormAlert';

const T = UI_LOCATIONS.importDialog;
const HEADER = LOCATION_CSV_COLUMNS.join(',');

export interface ImportRefusal {
  /** The refusal's first sentence (or the whole detail when it names no line). */
  summary: string;
  /** One bad line each (`Línea N: …`). */
  lines: string[];
}

/** The import's 400 (YARD_ERR.csvLines): its first sentence, then its `; `-separated bad lines. */
export function importRefusal(detail: string): ImportRefusal {
  const summary = YARD_ERR.csvLines([]).trim();
  if (!detail.startsWith(summary)) return { summary: detail, lines: [] };
  return { summary, lines: detail.slice(summary.length).trim().split('; ').filter(Boolean) };
}

/**
 * CONTRACT §17 `POST /admin/locations/import`: a CSV file chosen or pasted, all lines or none. A refusal
 * stays in the dialog, one bad line per row, so the user fixes the file and tries again.
 */
export function ImportLocationsDialog({ onClose }: { onClose: () => void }) {
  const formId = useId();
  const fileStatusId = useId();
  const [csv, setCsv] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [inputError, setInputError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<ImportRefusal | null>(null);
  const [busy, setBusy] = useState(false);

  const edit = (text: string) => {
    setCsv(text);
    setInputError(null);
    setRefusal(null);
  };

  const choose = async (file: File | undefined) => {
    if (!file) return;
    try {
      // Bytes, not file.text(): a file Excel saved in Spain is Windows-1252, not UTF-8 (shared/csv.ts).
      edit(decodeCsvFile(new Uint8Array(await file.arrayBuffer())));
      setFileName(file.name);
    } catch {
      setFileName(null);
      setInputError(T.fileError);
    }
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const parsed = importLocationsSchema.safeParse({ csv });
    if (!parsed.success) return setInputError(parsed.error.issues[0].message);
    setBusy(true);
    setRefusal(null);
    try {
      const { message } = await useLocations.getState().importCsv(parsed.data.csv);
      toast.success(message);
      onClose();
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.sessionEnded) return;
      setRefusal(
        err instanceof ApiError && err.status === 400 && err.detail
          ? importRefusal(err.detail)
          : { summary: errorText(err, UI_LOCATIONS.toast.importError), lines: [] },
      );
    }
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      dismissible={!busy}
      size="lg"
      title={T.title}
      description={T.description}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {UI_COMMON.cancel}
          </Button>
          <Button type="submit" form={formId} loading={busy}>
            {busy ? T.importing : T.confirm}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
        <div className="space-y-1.5 rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-600 ring-1 ring-inset ring-slate-200">
          <p>
            {T.header}:{' '}
            <code className="rounded bg-white px-1.5 py-0.5 font-mono text-xs font-semibold text-slate-900 ring-1 ring-slate-200">
              {HEADER}
            </code>
          </p>
          <p className="text-xs">{T.separators}</p>
          <p className="text-xs">
            {T.kinds}: <span className="font-mono">{LOCATION_KINDS.join(', ')}</span>
          </p>
        </div>
        {/* A visible button of our own over the native file input (which speaks the browser's language). */}
        <div className="flex flex-wrap items-center gap-3">
          <label
            className={cn(
              'inline-flex h-10 cursor-pointer items-center gap-2 rounded-lg bg-white px-4 text-sm font-semibold text-slate-700 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50',
              'focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-blue-500',
              busy && 'pointer-events-none opacity-50',
            )}
          >
            <FileUp aria-hidden className="size-4" />
            {T.chooseFile}
            <input
              type="file"
              accept=".csv,text/csv,text/plain"
              disabled={busy}
              aria-describedby={fileStatusId}
              onChange={(e) => void choose(e.target.files?.[0])}
              className="sr-only"
            />
          </label>
          <span id={fileStatusId} className="min-w-0 truncate text-sm text-slate-500">
            {fileName ? T.fileRead(fileName) : T.noFile}
          </span>
        </div>
        <Field label={T.text} error={inputError} hint={T.textHint}>
          {(control) => (
            <textarea
              {...control}
              name="csv"
              rows={8}
              spellCheck={false}
              value={csv}
              disabled={busy}
              onChange={(e) => edit(e.target.value)}
              placeholder={`${HEADER}\n${T.example}`}
              className={cn(inputClass, 'h-auto py-2 font-mono text-xs')}
            />
          )}
        </Field>
        {refusal && (
          <FormAlert className="py-2.5 text-red-800">
            <p className="font-semibold">{refusal.summary}</p>
            {refusal.lines.length > 0 && (
              <ul
                aria-label={T.linesTitle}
                className="mt-1.5 max-h-48 list-disc space-y-0.5 overflow-y-auto pl-5"
              >
                {refusal.lines.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            )}
          </FormAlert>
        )}
      </form>
    </Modal>
  );
}

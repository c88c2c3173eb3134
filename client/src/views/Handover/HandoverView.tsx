// Relevo de turno (CONTRACT §20, §24: admin, manager, gestor; also at /relevo): a shift's figures, what is
// open, late, held and in the yard, the punches missing, the previous shift's notes and this shift's; a form
// to leave a note to the next shift; `Imprimir` (print CSS, A4: handover.css) and `Exportar Excel`.
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Printer, RefreshCw, Trash2 } from 'lucide-react';
import { SHIFTS, type Shift } from '@shared/enums';
import { DESCRIPTION_MAX } from '@shared/constants';
import type { HandoverNote, Task } from '@shared/schemas';
import { HANDOVER_UI as T, STATUS_LABELS, TOAST } from '@shared/labels';
import { SHIFT_NAMES } from '@shared/shifts';
import { formatDate, formatDateTime, formatDuration, formatTime } from '@shared/time';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { ExcelButton } from '../../components/ExcelButton';
import { inputClass } from '../../components/Field';
import { cn } from '../../components/cn';
import { useSession } from '../../stores/session';
import { serverNow } from '../../stores/timeclock';
import {
  addHandoverNote,
  chooseHandover,
  deleteHandoverNote,
  exportHandover,
  loadHandover,
  useHandover,
} from '../../stores/handover';
import { toastError } from '../../toast';
import { useSocketEvent } from '../../socket';
import { toast } from 'sonner';
import './handover.css';

/** How often the page reads the shift again while open (its figures move; notes come by `handover:changed`). */
const REFRESH_MS = 60_000;
const NOTE_DELETE_MS = 60 * 60 * 1000;

export function HandoverView() {
  const report = useHandover((s) => s.report);
  const shift = useHandover((s) => s.shift);
  const date = useHandover((s) => s.date);
  const loading = useHandover((s) => s.loading);

  useEffect(() => {
    const load = () => loadHandover().catch((err: unknown) => toastError(err, T.title));
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [shift, date]);
  // A note written or deleted anywhere: read the shift again (its notes or its previous shift's may have moved).
  useSocketEvent('handover:changed', () => void loadHandover().catch(() => undefined));

  return (
    <div className="handover-page mx-auto max-w-7xl space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <div className="mr-auto min-w-0">
          <h1 className="text-xl font-bold text-slate-900">{T.title}</h1>
          {report && (
            <p className="text-sm text-slate-600" data-testid="handover-window">
              {T.shiftOf(SHIFT_NAMES[report.shift], formatDate(`${report.date}T12:00:00Z`))} ·{' '}
              {T.window(formatDateTime(report.from), formatDateTime(report.to))}
            </p>
          )}
        </div>
        <div className="flex flex-wrap items-end gap-2 print:hidden">
          <label className="text-sm font-medium text-slate-700">
            {T.shift}
            <select
              className={cn(inputClass, 'mt-1 w-36')}
              value={shift ?? ''}
              onChange={(e) => chooseHandover({ shift: e.target.value as Shift, date: date ?? undefined })}
            >
              {SHIFTS.map((s) => (
                <option key={s} value={s}>
                  {SHIFT_NAMES[s]}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm font-medium text-slate-700">
            {T.date}
            <input
              type="date"
              className={cn(inputClass, 'mt-1 w-44')}
              value={date ?? ''}
              onChange={(e) => chooseHandover({ date: e.target.value, shift: shift ?? undefined })}
            />
          </label>
          <Button
            variant="secondary"
            onClick={() => void loadHandover().catch(() => undefined)}
            loading={loading}
          >
            <RefreshCw aria-hidden className="size-4" />
            {T.refresh}
          </Button>
          <Button variant="secondary" onClick={() => window.print()}>
            <Printer aria-hidden className="size-4" />
            {T.print}
          </Button>
          <ExcelButton
            download={exportHandover}
            texts={{ label: T.exportExcel, done: TOAST.excelDownloaded, failed: TOAST.exportError }}
          />
        </div>
      </div>
      {report ? <Report /> : <p className="text-sm text-slate-500">{T.loading}</p>}
    </div>
  );
}

function Report() {
  const r = useHandover((s) => s.report)!;
  const now = serverNow();
  const figures: [string, number][] = [
    [T.figures.moves_done, r.moves_done],
    [T.figures.late, r.late.length],
    [T.figures.returned, r.returned.length],
    [T.figures.holds, r.holds.length],
    [T.figures.open_tasks, r.open_tasks.length],
    [T.figures.trucks_in_yard, r.trucks_in_yard.length],
    [T.figures.missing_punches, r.missing_punches.length],
  ];
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 xl:grid-cols-7 print:grid-cols-7">
        {figures.map(([label, value]) => (
          <div
            key={label}
            className="handover-figure rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200"
          >
            <dt className="text-sm font-medium text-slate-500">{label}</dt>
            <dd className="text-2xl font-bold tabular-nums text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>

      <div className="grid items-start gap-4 lg:grid-cols-2 print:grid-cols-1">
        <Card title={T.previousNotes}>
          <Notes notes={r.notes} now={now} />
        </Card>
        <Card title={T.currentNotes}>
          <Notes notes={r.shift_notes} now={now} />
          <NoteForm />
        </Card>
      </div>

      <Section title={T.sections.open_tasks} count={r.open_tasks.length}>
        <TaskTable tasks={r.open_tasks} now={now} />
      </Section>
      <Section title={T.sections.late} count={r.late.length}>
        <Table
          head={[
            T.columns.trailer,
            T.columns.route,
            T.columns.deadline,
            T.columns.lateness,
            T.columns.status,
          ]}
          rows={r.late.map((l) => [
            l.task.trailer_id,
            route(l.task),
            l.task.due_at ? formatDateTime(l.task.due_at) : '—',
            formatDuration(l.late_s * 1000),
            l.open ? T.lateOpen : T.lateDone,
          ])}
        />
      </Section>
      <Section title={T.sections.returned} count={r.returned.length}>
        <Table
          head={[T.columns.at, T.columns.trailer, T.columns.driver, T.columns.reason]}
          rows={r.returned.map((x) => [
            formatTime(x.at),
            x.trailer_id,
            x.driver_name ?? '—',
            x.reason ?? '—',
          ])}
        />
      </Section>
      <Section title={T.sections.holds} count={r.holds.length}>
        <Table
          head={[T.columns.trailer, T.columns.route, T.columns.reason]}
          rows={r.holds.map((t) => [t.trailer_id, route(t), t.hold_reason ?? '—'])}
        />
      </Section>
      <Section title={T.sections.trucks_in_yard} count={r.trucks_in_yard.length}>
        <Table
          head={[T.columns.truck, T.columns.carrier, T.columns.entered, T.columns.stay]}
          rows={r.trucks_in_yard.map((v) => [
            v.truck_plate,
            v.carrier,
            formatDateTime(v.entered_at),
            formatDuration(v.stay_s * 1000),
          ])}
        />
      </Section>
      <Section title={T.sections.missing_punches} count={r.missing_punches.length}>
        <Table
          head={[T.columns.driver, T.columns.lastEntrada, T.columns.punchStatus]}
          rows={r.missing_punches.map((p) => [
            p.user_name,
            p.last_entrada ? formatDateTime(p.last_entrada) : '—',
            T.missingPunch,
          ])}
        />
      </Section>
    </>
  );
}

const route = (t: Task) => `${t.origin} → ${t.destination}`;

function Section({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <Card title={`${title} (${count})`} bodyClassName="overflow-x-auto print:overflow-visible">
      {count ? children : <p className="px-4 py-3 text-sm text-slate-500">{T.none}</p>}
    </Card>
  );
}

function TaskTable({ tasks, now }: { tasks: Task[]; now: number }) {
  return (
    <Table
      head={[
        T.columns.trailer,
        T.columns.movement,
        T.columns.route,
        T.columns.status,
        T.columns.deadline,
        T.columns.assignee,
      ]}
      rows={tasks.map((t) => [
        t.trailer_id,
        t.title,
        route(t),
        t.on_hold ? T.onHold : STATUS_LABELS[t.status],
        t.due_at
          ? `${formatDateTime(t.due_at)}${Date.parse(t.due_at) <= now ? ` · ${T.lateOpen}` : ''}`
          : '—',
        t.assigned_to_name ?? '—',
      ])}
    />
  );
}

function Table({ head, rows }: { head: string[]; rows: string[][] }) {
  return (
    <table className="w-full text-left text-sm">
      <thead className="bg-slate-50 text-xs uppercase text-slate-500">
        <tr>
          {head.map((h) => (
            <th key={h} scope="col" className="px-4 py-2 font-semibold">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((row, i) => (
          <tr key={i}>
            {row.map((cell, j) => (
              <td
                key={j}
                className={cn(
                  'px-4 py-2 align-top text-slate-800',
                  j === 0 && 'font-medium whitespace-nowrap',
                )}
              >
                {cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Notes({ notes, now }: { notes: HandoverNote[]; now: number }) {
  const me = useSession((s) => s.user?.id);
  if (!notes.length) return <p className="px-4 py-3 text-sm text-slate-500">{T.noNotes}</p>;
  return (
    <ul className="divide-y divide-slate-100">
      {notes.map((n) => (
        <li key={n.id} className="flex items-start gap-2 px-4 py-3">
          <div className="min-w-0 flex-1">
            <p className="whitespace-pre-wrap break-words text-sm text-slate-900">{n.text}</p>
            <p className="mt-1 text-xs text-slate-500">
              {n.author_name} · {formatDateTime(n.created_at)}
            </p>
          </div>
          {n.author_id === me && now - Date.parse(n.created_at) < NOTE_DELETE_MS && (
            <Button
              variant="ghost"
              size="sm"
              className="print:hidden"
              aria-label={`${T.deleteNote}: ${n.text.slice(0, 40)}`}
              onClick={() =>
                void deleteHandoverNote(n.id).catch((err: unknown) => toastError(err, T.deleteNote))
              }
            >
              <Trash2 aria-hidden className="size-4" />
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

function NoteForm() {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    try {
      await addHandoverNote(text);
      setText('');
      toast.success(T.noteAdded);
    } catch (err) {
      toastError(err, T.addNote);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      onSubmit={(e) => void submit(e)}
      className="space-y-2 border-t border-slate-100 px-4 py-3 print:hidden"
    >
      <label className="block text-sm font-medium text-slate-700">
        {T.addNote}
        <textarea
          className={cn(inputClass, 'mt-1 h-24 py-2')}
          value={text}
          maxLength={DESCRIPTION_MAX}
          placeholder={T.notePlaceholder}
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <Button type="submit" loading={busy} disabled={!text.trim()}>
        {T.addNote}
      </Button>
    </form>
  );
}

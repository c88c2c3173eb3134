// Every trailer in the yard (CONTRACT §17): where, since when and for how long, and its open task; sorted
// by any column (longest there first to begin with), filtered by any text, exported to Excel. A row opens
// the trailer's panel.
import { TrailerMarks } from '../../components/trailers/TrailerMarks';
import { useMemo, useState } from 'react';
import { ArrowDown, ArrowUp, ArrowUpDown, FileSpreadsheet, PauseCircle, Truck } from 'lucide-react';
import { dwellLevel } from '@shared/dwell';
import { TOAST, UI_ATTENTION, UI_YARD, YARD_EXCEL } from '@shared/labels';
import type { YardTrailer } from '@shared/schemas';
import { fold } from '@shared/text';
import { formatDateTime, formatDuration, madridDay } from '@shared/time';
import { api } from '../../api';
import { StatusBadge } from '../../components/Badge';
import { cn } from '../../components/cn';
import { EmptyState } from '../../components/EmptyState';
import { inputClass } from '../../components/Field';
import { HeaderAction } from '../../components/HeaderAction';
import { useDownload } from '../../components/useDownload';
import { DWELL_CHIP } from './dwellStyle';
import { plateMatch } from '@shared/text';

const L = UI_YARD.list;

const SORT_COLUMNS = ['trailer', 'zone', 'place', 'since', 'dwell', 'task'] as const;
type SortColumn = (typeof SORT_COLUMNS)[number];
interface Sort {
  column: SortColumn;
  descending: boolean;
}
/** Longest at its place first: what needs a look. */
const DEFAULT_SORT: Sort = { column: 'dwell', descending: true };

const collator = new Intl.Collator('es', { sensitivity: 'base', numeric: true });
const sinceMs = (t: YardTrailer) => Date.parse(t.since);

/** Ascending order of each column; ties fall back to the plate, so the order never jumps. */
const COMPARE: Record<SortColumn, (a: YardTrailer, b: YardTrailer) => number> = {
  trailer: (a, b) => collator.compare(a.trailer_id, b.trailer_id),
  zone: (a, b) =>
    collator.compare(a.location.zone, b.location.zone) || collator.compare(a.location.name, b.location.name),
  place: (a, b) => collator.compare(a.location.name, b.location.name),
  since: (a, b) => sinceMs(a) - sinceMs(b),
  dwell: (a, b) => sinceMs(b) - sinceMs(a),
  task: (a, b) => collator.compare(a.open_task?.destination ?? '', b.open_task?.destination ?? ''),
};

function sortTrailers(trailers: readonly YardTrailer[], sort: Sort): YardTrailer[] {
  const sign = sort.descending ? -1 : 1;
  return [...trailers].sort((a, b) => {
    // Trailers without a task go after those with one, whichever the direction.
    if (sort.column === 'task' && !a.open_task !== !b.open_task) return a.open_task ? -1 : 1;
    return sign * COMPARE[sort.column](a, b) || COMPARE.trailer(a, b);
  });
}

/** The plate as §19 compares plates (dashes, dots, spaces aside); the places by their folded text. */
const matches = (t: YardTrailer, query: string, term: string) =>
  plateMatch(query, t.trailer_id) ||
  [t.location.name, t.location.code, t.location.zone, t.open_task?.destination ?? ''].some((s) =>
    fold(s).includes(term),
  );

export function TrailerList({
  trailers,
  now,
  onOpenTrailer,
}: {
  trailers: YardTrailer[];
  now: number;
  onOpenTrailer: (trailerId: string) => void;
}) {
  const [sort, setSort] = useState<Sort>(DEFAULT_SORT);
  const [query, setQuery] = useState('');
  const term = fold(query.trim());
  const rows = useMemo(
    () => sortTrailers(term ? trailers.filter((t) => matches(t, query, term)) : trailers, sort),
    [trailers, query, term, sort],
  );

  const excel = useDownload(
    () => api.download('/yard/trailers/export-excel', YARD_EXCEL.fileName(madridDay(now))),
    { done: TOAST.excelDownloaded, failed: TOAST.exportError },
  );

  const sortBy = (column: SortColumn) =>
    setSort((s) =>
      s.column === column
        ? { column, descending: !s.descending }
        : { column, descending: column === 'dwell' },
    );

  return (
    <section
      aria-labelledby="yard-list-title"
      className="flex min-h-0 flex-1 flex-col rounded-xl bg-white shadow-sm ring-1 ring-slate-200"
    >
      <header className="flex flex-wrap items-center gap-3 border-b border-slate-100 px-4 py-3">
        <h2 id="yard-list-title" className="flex items-center gap-2 text-base font-semibold text-slate-900">
          <Truck aria-hidden className="size-5 text-slate-500" />
          {L.title}
        </h2>
        <span className="text-sm text-slate-500 tabular-nums">{L.shown(rows.length, trailers.length)}</span>
        <input
          type="search"
          aria-label={L.filter}
          placeholder={L.filterPlaceholder}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          className={cn(inputClass, 'ml-auto w-full sm:w-72')}
        />
        <HeaderAction
          icon={FileSpreadsheet}
          label={L.export}
          variant="success"
          loading={excel.busy}
          onClick={() => void excel.run()}
        />
      </header>
      {rows.length === 0 ? (
        <EmptyState title={term ? L.noMatch(query.trim()) : L.empty} />
      ) : (
        <div className="min-h-0 flex-1 overflow-auto">
          <table className="w-full text-left text-sm 2xl:text-base">
            <thead className="sticky top-0 z-10 bg-slate-50 text-xs uppercase tracking-wide text-slate-500 2xl:text-sm">
              <tr>
                {SORT_COLUMNS.map((c) => (
                  <SortHeader key={c} column={c} sort={sort} onSort={sortBy} />
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((t) => (
                <Row key={t.trailer_id} trailer={t} now={now} onOpen={onOpenTrailer} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function SortHeader({
  column,
  sort,
  onSort,
}: {
  column: SortColumn;
  sort: Sort;
  onSort: (c: SortColumn) => void;
}) {
  const active = sort.column === column;
  const Icon = !active ? ArrowUpDown : sort.descending ? ArrowDown : ArrowUp;
  return (
    <th
      scope="col"
      aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}
      className="px-3 py-2 font-semibold"
    >
      <button
        type="button"
        onClick={() => onSort(column)}
        title={L.sortBy(L.columns[column])}
        className={cn(
          'inline-flex items-center gap-1 rounded uppercase hover:text-slate-900',
          'focus-visible:outline-2 focus-visible:outline-blue-500',
          active && 'text-slate-900',
        )}
      >
        {L.columns[column]}
        <Icon aria-hidden className={cn('size-3.5', !active && 'opacity-40')} />
      </button>
    </th>
  );
}

function Row({
  trailer: t,
  now,
  onOpen,
}: {
  trailer: YardTrailer;
  now: number;
  onOpen: (id: string) => void;
}) {
  const dwell = now - Date.parse(t.since);
  const level = dwellLevel(dwell);
  return (
    <tr
      data-trailer={t.trailer_id}
      onClick={() => onOpen(t.trailer_id)}
      className="cursor-pointer hover:bg-slate-50"
    >
      <td className="px-3 py-2">
        <button
          type="button"
          onClick={(e) => {
            e.stopPropagation();
            onOpen(t.trailer_id);
          }}
          className="rounded font-mono font-bold text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-blue-500"
        >
          {t.trailer_id}
        </button>{' '}
        <TrailerMarks marks={t.marks} />
      </td>
      <td className="px-3 py-2 text-slate-600">{t.location.zone}</td>
      <td className="px-3 py-2 font-medium text-slate-900">{t.location.name}</td>
      <td className="px-3 py-2 whitespace-nowrap text-slate-600">
        <time dateTime={t.since}>{formatDateTime(t.since)}</time>
      </td>
      <td className="px-3 py-2">
        <span
          data-dwell={level}
          className={cn(
            'inline-block whitespace-nowrap rounded-md px-2 py-0.5 font-semibold tabular-nums',
            DWELL_CHIP[level],
          )}
        >
          {formatDuration(dwell)}
        </span>
      </td>
      <td className="px-3 py-2">
        {t.open_task ? (
          <span className="flex flex-wrap items-center gap-1.5">
            <span className="font-medium text-slate-900">→ {t.open_task.destination}</span>
            <StatusBadge status={t.open_task.status} />
            {t.open_task.on_hold && (
              <PauseCircle
                role="img"
                aria-label={UI_ATTENTION.held(t.open_task.hold_reason)}
                className="size-4 text-violet-700"
              >
                <title>{UI_ATTENTION.held(t.open_task.hold_reason)}</title>
              </PauseCircle>
            )}
          </span>
        ) : (
          <span className="text-slate-400">—</span>
        )}
      </td>
    </tr>
  );
}

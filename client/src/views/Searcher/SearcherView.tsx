import type { FormEvent } from 'react';
import { Eraser, FileSearch, Search } from 'lucide-react';
import { toast } from 'sonner';
import { SEARCH_TYPES } from '@shared/enums';
import { SEARCH_MAX_ROWS } from '@shared/constants';
import { TOAST, UI_SEARCH } from '@shared/labels';
import type { SearchTask } from '@shared/schemas';
import { plateMatch } from '@shared/text';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import { Field, inputClass } from '../../components/Field';
import { Select } from '../../components/Select';
import { Spinner } from '../../components/Spinner';
import { useSearch, useSearchFeed } from '../../stores/search';
import { toastError } from '../../toast';
import { SearchResultCard } from './SearchResultCard';
import { TrailerLocations } from './TrailerLocations';

const TYPE_OPTIONS = SEARCH_TYPES.map((value) => ({ value, label: UI_SEARCH.searchTypes[value] }));

/**
 * Where the trailers found are (CONTRACT §19): in `Remolque` mode every trailer found; in `Todo` mode the
 * trailers whose plate the text names (plate key), when there are any.
 */
function TrailerAnswer({ query, type, results }: { query: string; type: string; results: SearchTask[] }) {
  const shown =
    type === 'trailer'
      ? results
      : type === 'all'
        ? results.filter((t) => plateMatch(query, t.trailer_id))
        : [];
  return shown.length > 0 ? <TrailerLocations tasks={shown} /> : null;
}

/** SPEC §2 Buscador Tareas (admin, manager, gestor). */
export function SearcherView() {
  useSearchFeed();
  const results = useSearch((s) => s.results);
  const searched = useSearch((s) => s.searched);
  const loading = useSearch((s) => s.loading);

  return (
    <div className="space-y-4">
      <SearchFormCard />
      {searched && results && (
        <TrailerAnswer query={searched.query ?? ''} type={searched.search_type} results={results} />
      )}
      <Card
        title={UI_SEARCH.results}
        icon={<FileSearch aria-hidden className="size-5" />}
        actions={
          results && (
            <Badge tone="blue" className="text-sm">
              <span data-testid="search-count">{UI_SEARCH.count(results.length)}</span>
            </Badge>
          )
        }
      >
        {results === null ? (
          loading ? (
            <p role="status" className="flex items-center justify-center gap-2 py-10 text-sm text-slate-500">
              <Spinner />
            </p>
          ) : (
            <EmptyState
              icon={<Search aria-hidden className="size-6" />}
              title={UI_SEARCH.intro}
              hint={UI_SEARCH.introHint}
            />
          )
        ) : results.length === 0 ? (
          <EmptyState title={UI_SEARCH.empty} hint={UI_SEARCH.emptyHint} />
        ) : (
          <>
            {results.length >= SEARCH_MAX_ROWS && (
              <p className="mb-3 text-sm text-amber-800">{UI_SEARCH.capped(SEARCH_MAX_ROWS)}</p>
            )}
            <ul aria-label={UI_SEARCH.results} className="grid gap-3 xl:grid-cols-2 2xl:grid-cols-3">
              {results.map((task) => (
                <SearchResultCard key={task.id} task={task} />
              ))}
            </ul>
          </>
        )}
      </Card>
    </div>
  );
}

function SearchFormCard() {
  const form = useSearch((s) => s.form);
  const setForm = useSearch((s) => s.setForm);
  const loading = useSearch((s) => s.loading);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const outcome = await useSearch.getState().search();
      if (!outcome.ok) toast.error(outcome.invalid);
      else if (outcome.count === 0) toast.info(TOAST.searchNone);
      else toast.success(TOAST.searchFound(outcome.count));
    } catch (err) {
      toastError(err, TOAST.searchError);
    }
  };

  return (
    <Card title={UI_SEARCH.title} icon={<Search aria-hidden className="size-5" />}>
      <form
        role="search"
        aria-label={UI_SEARCH.title}
        noValidate
        onSubmit={(e) => void submit(e)}
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)_auto]"
      >
        <p className="text-sm text-slate-500 sm:col-span-2 lg:col-span-5">{UI_SEARCH.subtitle}</p>
        <Field label={UI_SEARCH.term} className="sm:col-span-2 lg:col-span-1">
          {(control) => (
            <input
              {...control}
              type="search"
              value={form.query}
              onChange={(e) => setForm({ query: e.target.value })}
              placeholder={UI_SEARCH.termPlaceholder}
              className={inputClass}
            />
          )}
        </Field>
        <Field label={UI_SEARCH.searchIn}>
          {({ id }) => (
            <Select
              id={id}
              value={form.search_type}
              onChange={(search_type) => setForm({ search_type })}
              options={TYPE_OPTIONS}
            />
          )}
        </Field>
        <Field label={UI_SEARCH.dateFrom}>
          {(control) => (
            <input
              {...control}
              type="date"
              value={form.date_from}
              max={form.date_to || undefined}
              onChange={(e) => setForm({ date_from: e.target.value })}
              className={inputClass}
            />
          )}
        </Field>
        <Field label={UI_SEARCH.dateTo}>
          {(control) => (
            <input
              {...control}
              type="date"
              value={form.date_to}
              min={form.date_from || undefined}
              onChange={(e) => setForm({ date_to: e.target.value })}
              className={inputClass}
            />
          )}
        </Field>
        <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-1">
          <Button type="submit" loading={loading} className="flex-1 lg:flex-none">
            {!loading && <Search aria-hidden className="size-4" />}
            {UI_SEARCH.search}
          </Button>
          <Button
            variant="secondary"
            onClick={() => useSearch.getState().clear()}
            className="flex-1 lg:flex-none"
          >
            <Eraser aria-hidden className="size-4" />
            {UI_SEARCH.clear}
          </Button>
        </div>
      </form>
    </Card>
  );
}

// The searcher (SPEC §2 Buscador Tareas, CONTRACT §5). The form stays filled while the user visits other
// views; the results are those of the last search that ran. The criteria rule (SPEC §5) is the shared
// `searchQuerySchema`, so the client refuses exactly what the server would.
import { useEffect } from 'react';
import { create } from 'zustand';
import type { SearchType } from '@shared/enums';
import { searchQuerySchema, zodDetail, type SearchQuery, type SearchTask } from '@shared/schemas';
import { api } from '../api';
import { useResync, useSocketEvent } from '../socket';
import { latestRequests } from './latest';
import { onSessionEnd } from './session-end';

export interface SearchForm {
  query: string;
  search_type: SearchType;
  date_from: string;
  date_to: string;
}

export type SearchOutcome = { ok: true; count: number } | { ok: false; invalid: string };

interface SearchState {
  form: SearchForm;
  /** Null until a search has run (the view shows its introduction instead of "no results"). */
  results: SearchTask[] | null;
  /** The criteria of the results shown (a trailer search shows where the trailer is now). */
  searched: SearchQuery | null;
  loading: boolean;
  setForm: (patch: Partial<SearchForm>) => void;
  /** Validates the form and searches. Throws ApiError when the server fails. */
  search: () => Promise<SearchOutcome>;
  /** Runs the last search again without a word to the user (a task in the results changed). */
  refresh: () => Promise<void>;
  clear: () => void;
}

const emptyForm: SearchForm = { query: '', search_type: 'all', date_from: '', date_to: '' };
const initial = { form: emptyForm, results: null, searched: null, loading: false };

/** The form as the API's query: trimmed, blanks left out; or the SPEC §5 message. */
export function validateSearch(form: SearchForm): { query: SearchQuery } | { invalid: string } {
  const parsed = searchQuerySchema.safeParse(form);
  return parsed.success ? { query: parsed.data } : { invalid: zodDetail(parsed.error) };
}

const fetchResults = (q: SearchQuery) => api.get<SearchTask[]>('/admin/search/tasks', { ...q });

const requests = latestRequests();

export const useSearch = create<SearchState>((set, get) => ({
  ...initial,
  setForm: (patch) => set((s) => ({ form: { ...s.form, ...patch } })),

  async search() {
    const checked = validateSearch(get().form);
    if ('invalid' in checked) return { ok: false, invalid: checked.invalid };
    const isLatest = requests.begin();
    set({ loading: true });
    try {
      const results = await fetchResults(checked.query);
      if (isLatest()) set({ results, searched: checked.query });
      return { ok: true, count: results.length };
    } finally {
      if (isLatest()) set({ loading: false });
    }
  },

  async refresh() {
    const { searched, loading } = get();
    // A search in flight will bring fresher results anyway.
    if (!searched || loading) return;
    const isLatest = requests.begin();
    const results = await fetchResults(searched);
    if (isLatest()) set({ results });
  },

  clear: () => {
    requests.forget();
    set(initial);
  },
}));

// A late answer of the session that ended is dropped.
onSessionEnd(() => {
  requests.forget();
  useSearch.setState(initial);
});

const REFRESH_DEBOUNCE_MS = 1000;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
/** Many task events in a burst (a shift change) make one search, a second after the last. */
function refreshSoon(): void {
  if (!useSearch.getState().searched) return;
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(
    () =>
      void useSearch
        .getState()
        .refresh()
        .catch((err: unknown) => console.warn('Error al buscar tareas', err)),
    REFRESH_DEBOUNCE_MS,
  );
}
const shown = (id: string) => useSearch.getState().results?.some((t) => t.id === id) ?? false;

/**
 * Mount in the searcher: results follow the yard while it is open. A new task may match the search;
 * a change or deletion matters only for a task in the results. Reconnects run the search again.
 */
export function useSearchFeed(): void {
  useResync(refreshSoon);
  useSocketEvent('task:created', refreshSoon);
  useSocketEvent('task:updated', ({ task }) => shown(task.id) && refreshSoon());
  useSocketEvent('task:deleted', ({ id }) => shown(id) && refreshSoon());
  useEffect(() => () => clearTimeout(refreshTimer), []);
}

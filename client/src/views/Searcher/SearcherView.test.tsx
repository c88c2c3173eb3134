import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { ERR, TOAST, UI_SEARCH, UI_ATTENTION } from '@shared/labels';
import type { SearchTask } from '@shared/schemas';
import { json, mockFetch } from '../../test/http';
import { makeTask } from '../../test/tasks';
import { useSearch } from '../../stores/search';
import { SearcherView } from './SearcherView';
import { timelineSteps } from './timeline';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

/** A finished task found by a search, with where its trailer ended and no timeline entries. */
const task = (over: Partial<SearchTask> = {}): SearchTask => ({
  ...makeTask({
    id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    description: 'Con lona',
    destination: 'Campa Camión',
    trailer_id: 'R-1234',
    priority: 'high',
    status: 'finalizada',
    vehicle_type: 'semiremolque_out_km0',
    assigned_to: 'd1',
    assigned_to_name: 'Lucía Conductora',
    created_by_name: 'Gema Gestora',
    created_at: '2026-11-20T08:00:00.000Z',
    updated_at: '2026-11-20T09:00:00.000Z',
    assigned_at: '2026-11-20T08:05:00.000Z',
    completed_at: '2026-11-20T08:40:00.000Z',
    status_since: '2026-11-20T08:40:00.000Z',
    version: 3,
  }),
  trailer_last_location: 'Campa Camión',
  trailer_last_location_at: '2026-11-20T08:40:00.000Z',
  timeline: [],
  ...over,
});

const query = (fetch: ReturnType<typeof mockFetch>, n = 0) =>
  Object.fromEntries(new URL(String(fetch.mock.calls[n][0]), 'http://localhost').searchParams);

beforeEach(() => {
  useSearch.getState().clear();
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
  vi.mocked(toast.info).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const search = () => userEvent.click(screen.getByRole('button', { name: UI_SEARCH.search }));

describe('search criteria (SPEC §5)', { timeout: 20_000 }, () => {
  it('refuses a search without criteria and sends nothing', async () => {
    const fetch = mockFetch(() => json(200, []));
    render(<SearcherView />);
    await search();
    expect(toast.error).toHaveBeenCalledWith(ERR.searchCriteria);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('counts a blank term as no criterion', async () => {
    const fetch = mockFetch(() => json(200, []));
    render(<SearcherView />);
    await userEvent.type(screen.getByLabelText(UI_SEARCH.term), '    ');
    await search();
    expect(toast.error).toHaveBeenCalledWith(ERR.searchCriteria);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('accepts a date alone', async () => {
    const fetch = mockFetch(() => json(200, []));
    render(<SearcherView />);
    await userEvent.type(screen.getByLabelText(UI_SEARCH.dateTo), '2026-11-22');
    await search();
    expect(toast.error).not.toHaveBeenCalled();
    expect(query(fetch)).toEqual({ search_type: 'all', date_to: '2026-11-22' });
  });

  it('sends the trimmed term with the chosen field', async () => {
    const fetch = mockFetch(() => json(200, [task()]));
    useSearch.getState().setForm({ search_type: 'trailer' });
    render(<SearcherView />);
    await userEvent.type(screen.getByLabelText(UI_SEARCH.term), '  r-12 ');
    await search();
    expect(query(fetch)).toEqual({ search_type: 'trailer', query: 'r-12' });
  });

  it('refuses a range that ends before it starts', async () => {
    const fetch = mockFetch(() => json(200, []));
    useSearch.getState().setForm({ date_from: '2026-11-22', date_to: '2026-11-01' });
    render(<SearcherView />);
    await search();
    expect(toast.error).toHaveBeenCalledWith(ERR.dateOrder);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('results', { timeout: 20_000 }, () => {
  it('shows the count, the badges, the fields and the timeline, and toasts the count', async () => {
    mockFetch(() =>
      json(200, [task(), task({ id: 'b7e3f0a2-0000-4000-8000-000000000002', status: 'bolsa_trabajo' })]),
    );
    render(<SearcherView />);
    await userEvent.type(screen.getByLabelText(UI_SEARCH.term), 'camion');
    await search();

    expect(toast.success).toHaveBeenCalledWith(TOAST.searchFound(2));
    expect(screen.getByTestId('search-count')).toHaveTextContent('2 tareas');
    const [first] = screen.getAllByTestId('search-result');
    const card = within(first);
    expect(card.getByText('Finalizada', { selector: 'span' })).toBeInTheDocument();
    expect(card.getByText('Alta')).toBeInTheDocument();
    expect(card.getByText('SEMI OUT KM0')).toBeInTheDocument();
    expect(card.getByText('#c1f90ae7')).toBeInTheDocument();
    expect(card.getByText('R-1234')).toBeInTheDocument();
    expect(card.getByText('Gema Gestora')).toBeInTheDocument();
    expect(card.getByText('Muelle 3')).toBeInTheDocument();
    expect(card.getByText('Con lona')).toBeInTheDocument();
    // Madrid time (UTC+1 in November).
    expect(card.getAllByText('20/11/2026, 09:00').length).toBeGreaterThan(0);
    const timeline = within(card.getByTestId('search-timeline'));
    expect(timeline.getByText('Creada')).toBeInTheDocument();
    expect(timeline.getByText('Lucía Conductora')).toBeInTheDocument();
    expect(timeline.getByText('Finalizada')).toBeInTheDocument();
  });

  it('marks a held task with its reason (CONTRACT §15)', async () => {
    mockFetch(() =>
      json(200, [
        task({ status: 'bolsa_trabajo', on_hold: true, hold_reason: 'Remolque dañado' }),
        task({ id: 'b7e3f0a2-0000-4000-8000-000000000002', status: 'bolsa_trabajo' }),
      ]),
    );
    render(<SearcherView />);
    await userEvent.type(screen.getByLabelText(UI_SEARCH.term), 'R-1234');
    await search();
    const [held, free] = screen.getAllByTestId('search-result');
    expect(within(held).getByText(UI_ATTENTION.held('Remolque dañado'))).toBeInTheDocument();
    expect(within(free).queryByText(/Retenida/)).toBeNull();
  });

  it('shows the deadline in Madrid time and the lateness of a finished task (CONTRACT §20)', async () => {
    mockFetch(() =>
      json(200, [
        task({ due_at: '2026-11-20T08:28:00.000Z', late_s: 12 * 60 }),
        task({ id: 'b7e3f0a2-0000-4000-8000-000000000002' }),
      ]),
    );
    render(<SearcherView />);
    await userEvent.type(screen.getByLabelText(UI_SEARCH.term), 'R-1234');
    await search();
    const [late, none] = screen.getAllByTestId('search-result');
    expect(within(late).getByTestId('search-due-at')).toHaveTextContent('20/11/2026, 09:28');
    expect(within(late).getByTestId('deadline')).toHaveTextContent('Retrasada 12 min');
    expect(within(none).queryByTestId('search-due-at')).toBeNull();
  });

  it('says where a finished task’s trailer was really left (CONTRACT §20)', async () => {
    mockFetch(() =>
      json(200, [task({ status: 'finalizada', proof: 'scan', dropped_at_location_name: 'Campa Norte' })]),
    );
    render(<SearcherView />);
    await userEvent.type(screen.getByLabelText(UI_SEARCH.term), 'R-1234');
    await search();
    expect(within(screen.getByTestId('search-result')).getByTestId('dropped-at')).toHaveTextContent(
      'Dejado en Campa Norte',
    );
  });

  it('says so when nothing matches, with the info toast', async () => {
    mockFetch(() => json(200, []));
    render(<SearcherView />);
    await userEvent.type(screen.getByLabelText(UI_SEARCH.term), 'nada');
    await search();
    expect(toast.info).toHaveBeenCalledWith(TOAST.searchNone);
    expect(screen.getByText(UI_SEARCH.empty)).toBeInTheDocument();
    expect(screen.getByText(UI_SEARCH.emptyHint)).toBeInTheDocument();
  });

  it('toasts the fallback when the server fails without a detail', async () => {
    mockFetch(() => new Response('', { status: 500 }));
    render(<SearcherView />);
    await userEvent.type(screen.getByLabelText(UI_SEARCH.term), 'x');
    await search();
    expect(toast.error).toHaveBeenCalledWith(TOAST.searchError);
  });

  it('shows where the trailer is now on a trailer search', async () => {
    mockFetch(() => json(200, [task()]));
    useSearch.getState().setForm({ search_type: 'trailer', query: 'R-1234' });
    render(<SearcherView />);
    await search();
    const panel = within(screen.getByTestId('trailer-locations'));
    expect(panel.getByText('Campa Camión')).toBeInTheDocument();
  });

  it('in Todo mode says where the trailer is when the text is its plate written otherwise, not otherwise', async () => {
    mockFetch(() => json(200, [task({ trailer_id: 'R-1234-ABC' })]));
    useSearch.getState().setForm({ search_type: 'all', query: 'r 1234' });
    render(<SearcherView />);
    await search();
    expect(within(screen.getByTestId('trailer-locations')).getByText('Campa Camión')).toBeInTheDocument();
    // A text that is not the plate (an origin found the task): no trailer answer.
    useSearch.getState().setForm({ search_type: 'all', query: 'Campa' });
    await search();
    expect(screen.queryByTestId('trailer-locations')).toBeNull();
  });

  it('Limpiar empties the form and the results', async () => {
    mockFetch(() => json(200, [task()]));
    render(<SearcherView />);
    await userEvent.type(screen.getByLabelText(UI_SEARCH.term), 'R-1');
    await search();
    await userEvent.click(screen.getByRole('button', { name: UI_SEARCH.clear }));
    expect(screen.getByLabelText(UI_SEARCH.term)).toHaveValue('');
    expect(screen.queryAllByTestId('search-result')).toHaveLength(0);
    expect(screen.getByText(UI_SEARCH.intro)).toBeInTheDocument();
  });
});

describe('timeline steps', () => {
  it('a pool task is Pendiente and Sin asignar', () => {
    const steps = timelineSteps(task({ status: 'bolsa_trabajo', assigned_to: null, assigned_to_name: null }));
    expect(steps.map((s) => [s.label, s.state, s.detail])).toEqual([
      ['Creada', 'done', 'por Gema Gestora'],
      ['Asignada', 'waiting', 'Sin asignar'],
      ['Pendiente', 'current', null],
    ]);
  });

  it('a task in progress names its driver', () => {
    const steps = timelineSteps(task({ status: 'en_proceso', completed_at: null }));
    expect(steps.map((s) => [s.label, s.state, s.detail])).toEqual([
      ['Creada', 'done', 'por Gema Gestora'],
      ['Asignada', 'done', 'Lucía Conductora'],
      ['En progreso', 'current', null],
    ]);
  });

  it('a pool task dragged straight to Finalizada was never assigned', () => {
    const steps = timelineSteps(task({ assigned_to: null, assigned_to_name: null, assigned_at: null }));
    expect(steps[1]).toMatchObject({ detail: 'Sin asignar', state: 'waiting' });
    expect(steps[2]).toMatchObject({ label: 'Finalizada', state: 'done', at: '2026-11-20T08:40:00.000Z' });
  });
});

// The Patio view in jsdom (CONTRACT §17): places drawn by zone at their grid cells, trailers coloured by
// their time there, the marks (booked to leave, held, incoming, full, gate), the list's sorting, a trailer
// dropped on another place opening the create form with that move (and a full place refusing it), and the
// trailer panel: its history, "Mover a…" and "Dar salida".
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { OVERFULL_LABEL, UI_ATTENTION, UI_YARD, YARD_ERR } from '@shared/labels';
import {
  DEFAULT_TRAILER_MARKS,
  type SearchTask,
  type YardLocation,
  type YardSlotTrailer,
  type YardTrailer,
} from '@shared/schemas';
import { json, mockFetch } from '../../test/http';
import { makeTask } from '../../test/tasks';
import { resetSessionStores } from '../../stores/session-end';
import { useSession } from '../../stores/session';
import { useUi } from '../../stores/ui';
import { PLACE_SLOTS_SHOWN } from './PlaceCell';
import { YardView } from './YardView';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

// The socket stands still in jsdom: the view loads once at mount.
vi.mock('../../socket', () => import('../../test/socket').then((m) => m.stillSocketHooks()));

const HOUR = 3_600_000;
const hoursAgo = (h: number) => new Date(Date.now() - h * HOUR).toISOString();

const place = (code: string, fields: Partial<YardLocation> = {}): YardLocation => ({
  id: `id-${code}`,
  code,
  name: `Plaza ${code}`,
  kind: 'campa',
  zone: 'Campa B',
  capacity: 1,
  x: 0,
  y: 0,
  active: true,
  trailers: [],
  incoming: [],
  free: 1,
  ...fields,
});
const standing = (trailer_id: string, hours: number, open_task: YardSlotTrailer['open_task'] = null) => ({
  trailer_id,
  since: hoursAgo(hours),
  open_task,
  marks: DEFAULT_TRAILER_MARKS,
});

// Muelles: R-1 fresh (full dock), R-2 booked to leave with a held task (its dock has room again).
// Campa B: C-1 expects R-9, C-7 holds R-3 for more than a day, C-2 is free. Accesos: the gate.
const M1 = place('M-1', { zone: 'Muelles', kind: 'muelle', x: 0, free: 0, trailers: [standing('R-1', 1)] });
const M2 = place('M-2', {
  zone: 'Muelles',
  kind: 'muelle',
  x: 1,
  trailers: [
    standing('R-2', 10, {
      id: 't-2',
      title: 'Mover',
      status: 'bolsa_trabajo',
      destination: 'Plaza C-2',
      on_hold: true,
      hold_reason: 'Falta documentación',
    }),
  ],
});
const C1 = place('C-1', {
  free: 0,
  incoming: [{ task_id: 't-9', trailer_id: 'R-9', status: 'en_proceso', on_hold: false }],
});
const C2 = place('C-2', { x: 1 });
const C7 = place('C-7', { x: 7, y: 3, free: 0, trailers: [standing('R-3', 30)] });
const GATE = place('PUERTA', { name: 'Puerta', zone: 'Accesos', kind: 'puerta', free: null });
const PLACES = [GATE, C1, C2, C7, M1, M2];

const located = (p: YardLocation, t: YardSlotTrailer): YardTrailer => ({
  trailer_id: t.trailer_id,
  location: { id: p.id, code: p.code, name: p.name, zone: p.zone, kind: p.kind },
  since: t.since,
  open_task: t.open_task,
  marks: t.marks,
});
const TRAILERS = [located(M1, M1.trailers[0]), located(M2, M2.trailers[0]), located(C7, C7.trailers[0])];

const found = (task: Partial<SearchTask>): SearchTask => ({
  ...makeTask({ status: 'finalizada', ...task }),
  timeline: [],
  trailer_last_location: null,
  trailer_last_location_at: null,
});
const history = [
  found({ trailer_id: 'R-1', origin: 'Plaza C-2', destination: 'Plaza M-1' }),
  // The searcher matches substrings: R-10's task is not R-1's history.
  found({ trailer_id: 'R-10', origin: 'Puerta', destination: 'Plaza C-9' }),
];

/** What GET /yard and GET /yard/trailers answer (a test may change it before rendering). */
let yard: { places: YardLocation[]; trailers: YardTrailer[] };
let fetchMock: ReturnType<typeof mockFetch>;
beforeEach(() => {
  useSession.setState({
    token: 't',
    user: { id: 'me', name: 'Gestora', email: 'g@patio.es', role: 'gestor' },
    status: 'authenticated',
  });
  yard = { places: PLACES, trailers: TRAILERS };
  fetchMock = mockFetch((path, init) => {
    if (path === '/yard') return json(200, yard.places);
    if (path === '/yard/trailers') return json(200, yard.trailers);
    if (path === '/server-time') return json(200, { epoch_ms: Date.now() });
    if (path === '/admin/search/tasks') return json(200, history);
    if (path === '/yard/trailers/R-1/leave' && init.method === 'POST')
      return json(200, { message: 'El remolque R-1 ha salido del patio' });
    return json(404, { detail: 'no' });
  });
});
afterEach(() => {
  cleanup();
  resetSessionStores('me');
  vi.unstubAllGlobals();
  vi.mocked(toast.error).mockClear();
});

async function renderYard() {
  render(<YardView />);
  await screen.findByTestId('yard-map');
}

const zone = (name: string, places: number) =>
  screen.getByRole('region', { name: UI_YARD.map.zone(name, places) });
const placeCell = (code: string) => document.querySelector<HTMLElement>(`[data-place="${code}"]`)!;
const chip = (trailer: string) => document.querySelector<HTMLElement>(`[data-trailer="${trailer}"]`)!;

/** jsdom has no DataTransfer: the little the map uses. */
function dataTransfer() {
  const data = new Map<string, string>();
  return {
    setData: (type: string, value: string) => void data.set(type, value),
    getData: (type: string) => data.get(type) ?? '',
    get types() {
      return [...data.keys()];
    },
    effectAllowed: 'all',
    dropEffect: 'none',
  };
}
function drag(trailer: string, to: string) {
  const dt = dataTransfer();
  fireEvent.dragStart(chip(trailer), { dataTransfer: dt });
  fireEvent.dragOver(placeCell(to), { dataTransfer: dt });
  fireEvent.drop(placeCell(to), { dataTransfer: dt });
  fireEvent.dragEnd(chip(trailer), { dataTransfer: dt });
}

describe('the Patio map', () => {
  it('draws each zone in name order with its places at their grid cells', async () => {
    await renderYard();
    const zones = [...screen.getByTestId('yard-map').querySelectorAll('[data-zone]')];
    expect(zones.map((z) => z.getAttribute('data-zone'))).toEqual(['Accesos', 'Campa B', 'Muelles']);
    const campa = zone('Campa B', 3);
    expect(
      within(campa)
        .getAllByRole('group')
        .map((g) => g.getAttribute('data-place')),
    ).toEqual(['C-1', 'C-2', 'C-7']);
    // x 0, 1, 7 → columns 1, 2 and (after one aisle) 4; y 0, 3 → rows 1 and 3.
    const cellOf = (code: string) => placeCell(code).parentElement!.style;
    expect([cellOf('C-1').gridColumn, cellOf('C-2').gridColumn, cellOf('C-7').gridColumn]).toEqual([
      '1',
      '2',
      '4',
    ]);
    expect([cellOf('C-1').gridRow, cellOf('C-7').gridRow]).toEqual(['1', '3']);
    expect(
      within(zone('Muelles', 2)).getByRole('group', { name: /Plaza M-1, 1 de 1 plaza ocupada/ }),
    ).toBeTruthy();
  });

  it('colours trailers by their time there and marks leaving, held, incoming, full and the gate', async () => {
    await renderYard();
    expect(chip('R-1').dataset.dwell).toBe('fresh');
    expect(chip('R-2').dataset.dwell).toBe('long');
    expect(chip('R-3').dataset.dwell).toBe('stale');
    expect(chip('R-3')).toHaveAccessibleName(/más de 24 h aquí/i);

    expect(chip('R-2').querySelector('[data-mark="leaving"]')).not.toBeNull();
    expect(chip('R-2').querySelector('[data-mark="held"]')).not.toBeNull();
    expect(chip('R-2')).toHaveTextContent('Plaza C-2');
    expect(chip('R-1').querySelector('[data-mark]')).toBeNull();

    expect(within(placeCell('C-1')).getByRole('note', { name: UI_YARD.map.incoming('R-9') })).toBeTruthy();
    expect(placeCell('C-1').dataset.full).toBe('true');
    expect(placeCell('M-1').dataset.full).toBe('true');
    // R-2 is leaving: its dock counts as free.
    expect(placeCell('M-2').dataset.full).toBeUndefined();
    expect(placeCell('M-2')).toHaveTextContent('0/1');
    expect(placeCell('PUERTA')).toHaveAccessibleName(`Puerta, ${UI_YARD.map.gateHint}`);
    expect(placeCell('PUERTA')).not.toHaveTextContent('/');

    const summary = screen.getByLabelText(UI_YARD.summary.label);
    expect(summary).toHaveTextContent(`${UI_YARD.summary.trailers}3`);
    expect(summary).toHaveTextContent(`${UI_YARD.summary.incoming}1`);
    expect(summary).toHaveTextContent(`${UI_YARD.summary.stale}1`);
    expect(summary).toHaveTextContent(`${UI_YARD.summary.free}2`);
  });

  it(`a big place draws ${PLACE_SLOTS_SHOWN} slots at most and counts the rest`, async () => {
    const big = place('BIG', {
      zone: 'Aparcamiento',
      capacity: 30,
      free: 22,
      trailers: Array.from({ length: 6 }, (_, i) => standing(`B-${i}`, 2)),
      incoming: [{ task_id: 't-b', trailer_id: 'B-9', status: 'bolsa_trabajo', on_hold: false }],
    });
    yard = { places: [big], trailers: [] };
    await renderYard();
    const cell = placeCell('BIG');
    expect(cell.querySelectorAll('[data-trailer]')).toHaveLength(PLACE_SLOTS_SHOWN - 1);
    expect(cell).toHaveTextContent(UI_YARD.map.more(7 - (PLACE_SLOTS_SHOWN - 1)));
    expect(cell).toHaveTextContent('8/30');
  });

  it('a place holding more trailers than its capacity shows Sobreocupada and its real count (CONTRACT §20)', async () => {
    const over = place('OV', { capacity: 1, free: 0, trailers: [standing('O-1', 1), standing('O-2', 2)] });
    yard = { places: [over, place('OK')], trailers: [] };
    await renderYard();
    const cell = placeCell('OV');
    expect(within(cell).getByTestId('overfull')).toHaveTextContent(OVERFULL_LABEL);
    expect(cell).toHaveTextContent('2/1');
    expect(cell.getAttribute('aria-label')).toContain(OVERFULL_LABEL);
    expect(within(placeCell('OK')).queryByTestId('overfull')).toBeNull();
  });

  it('a trailer dropped on another place opens the create form with that move', async () => {
    await renderYard();
    drag('R-1', 'C-2');
    expect(useUi.getState()).toMatchObject({
      createTaskOpen: true,
      createTaskDraft: {
        trailer_id: 'R-1',
        origin: 'Plaza M-1',
        origin_location_id: 'id-M-1',
        destination: 'Plaza C-2',
        destination_location_id: 'id-C-2',
      },
    });
  });

  it('a full place refuses the drop with the server’s words, and a leaving trailer does not drag', async () => {
    await renderYard();
    drag('R-1', 'C-7');
    expect(toast.error).toHaveBeenCalledWith(YARD_ERR.locationFull('Plaza C-7'));
    expect(useUi.getState().createTaskOpen).toBe(false);
    expect(chip('R-1').draggable).toBe(true);
    expect(chip('R-2').draggable).toBe(false);
  });
});

describe('the trailer list', () => {
  it('the plate search, written any way, marks the trailer found, fades the rest and opens it', async () => {
    const scrolled = vi.fn(function (this: Element) {
      return this.getAttribute('data-trailer');
    });
    Element.prototype.scrollIntoView = scrolled;
    await renderYard();
    const box = screen.getByRole('searchbox', { name: UI_YARD.plateSearch.label });
    await userEvent.setup({ delay: null }).type(box, ' r.3 ');
    // The trailer found comes into view on the map.
    expect(scrolled).toHaveLastReturnedWith('R-3');
    expect(chip('R-3').dataset.found).toBe('true');
    expect(placeCell('C-7').dataset.found).toBe('true');
    expect(placeCell('C-7')).not.toHaveClass('opacity-40');
    expect(placeCell('M-1')).toHaveClass('opacity-40');
    expect(chip('R-1').dataset.found).toBeUndefined();
    expect(screen.getByRole('status')).toHaveTextContent(UI_YARD.plateSearch.found(1));
    const result = screen.getByRole('button', { name: UI_YARD.plateSearch.open('R-3', 'Plaza C-7') });
    expect(result).toHaveTextContent('R-3Plaza C-7 · Campa B');
    await userEvent.setup({ delay: null }).click(result);
    await screen.findByRole('dialog', { name: UI_YARD.panel.title('R-3') });
  });

  it('the plate search says when no trailer matches; Escape empties it and every place shows again', async () => {
    Element.prototype.scrollIntoView = vi.fn();
    await renderYard();
    const box = screen.getByRole('searchbox', { name: UI_YARD.plateSearch.label });
    const user = userEvent.setup({ delay: null });
    await user.type(box, 'r-7');
    expect(screen.getByRole('status')).toHaveTextContent(UI_YARD.plateSearch.none('r-7'));
    expect(placeCell('C-7')).toHaveClass('opacity-40');
    await user.keyboard('{Escape}');
    expect(box).toHaveValue('');
    expect(placeCell('C-7')).not.toHaveClass('opacity-40');
    expect(document.querySelector('[data-found]')).toBeNull();
    // Enter opens the first trailer found.
    await user.type(box, 'R1{Enter}');
    await screen.findByRole('dialog', { name: UI_YARD.panel.title('R-1') });
  });

  it('sorts by the clicked column, longest stay first to begin with', async () => {
    const user = userEvent.setup();
    await renderYard();
    await user.click(screen.getByRole('tab', { name: /Remolques/ }));
    const order = () => [...document.querySelectorAll('tbody tr')].map((r) => r.getAttribute('data-trailer'));
    expect(order()).toEqual(['R-3', 'R-2', 'R-1']);
    // R-2's task is held: the mark says why.
    expect(screen.getByRole('img', { name: UI_ATTENTION.held('Falta documentación') })).toBeInTheDocument();
    const header = (name: string) => screen.getByRole('button', { name: new RegExp(`^${name}`) });

    await user.click(header(UI_YARD.list.columns.trailer));
    expect(order()).toEqual(['R-1', 'R-2', 'R-3']);
    expect(
      screen.getByRole('columnheader', { name: new RegExp(UI_YARD.list.columns.trailer) }),
    ).toHaveAttribute('aria-sort', 'ascending');
    await user.click(header(UI_YARD.list.columns.trailer));
    expect(order()).toEqual(['R-3', 'R-2', 'R-1']);

    await user.click(header(UI_YARD.list.columns.zone));
    expect(order()).toEqual(['R-3', 'R-1', 'R-2']);
    // Trailers with a task first, in either direction.
    await user.click(header(UI_YARD.list.columns.task));
    expect(order()[0]).toBe('R-2');
    await user.click(header(UI_YARD.list.columns.task));
    expect(order()[0]).toBe('R-2');

    await user.type(screen.getByRole('searchbox', { name: UI_YARD.list.filter }), 'plaza m');
    expect(order().sort()).toEqual(['R-1', 'R-2']);
  });
});

describe('the trailer panel', () => {
  it('shows where and how long, its own history, moves by keyboard and gives leave after confirming', async () => {
    const user = userEvent.setup();
    await renderYard();
    await user.click(chip('R-1'));
    const panel = await screen.findByRole('dialog', { name: UI_YARD.panel.title('R-1') });
    expect(panel).toHaveTextContent('Plaza M-1');
    expect(panel).toHaveTextContent(UI_YARD.panel.noOpenTask);
    const rows = await within(panel).findAllByRole('listitem');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('Plaza C-2 → Plaza M-1');

    // "Mover a…": full places are listed but cannot be chosen.
    const select = within(panel).getByRole('combobox', { name: UI_YARD.panel.moveTo });
    expect(within(select).getByRole('option', { name: UI_YARD.panel.moveFull('Plaza C-7') })).toBeDisabled();
    await user.selectOptions(select, 'id-C-2');
    await user.click(within(panel).getByRole('button', { name: UI_YARD.panel.move }));
    expect(useUi.getState().createTaskDraft).toMatchObject({
      trailer_id: 'R-1',
      destination_location_id: 'id-C-2',
    });
    expect(screen.queryByRole('dialog', { name: UI_YARD.panel.title('R-1') })).toBeNull();

    await user.click(chip('R-1'));
    await user.click(await screen.findByRole('button', { name: UI_YARD.panel.leave }));
    const confirm = await screen.findByRole('dialog', { name: UI_YARD.leaveDialog.title });
    await user.click(within(confirm).getByRole('button', { name: UI_YARD.leaveDialog.confirm }));
    await act(async () => {});
    const posted = fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST').map(([u]) => String(u));
    expect(posted).toEqual([expect.stringMatching(/\/api\/yard\/trailers\/R-1\/leave$/)]);
    expect(toast.success).toHaveBeenCalledWith('El remolque R-1 ha salido del patio');
  });

  it('a trailer with an open task can neither be moved nor given leave', async () => {
    const user = userEvent.setup();
    await renderYard();
    await user.click(chip('R-2'));
    const panel = await screen.findByRole('dialog', { name: UI_YARD.panel.title('R-2') });
    expect(panel).toHaveTextContent(UI_YARD.panel.busy);
    // Held: the panel says why.
    expect(panel).toHaveTextContent(UI_ATTENTION.held('Falta documentación'));
    expect(within(panel).queryByRole('combobox')).toBeNull();
    expect(within(panel).getByRole('button', { name: UI_YARD.panel.leave })).toBeDisabled();
  });
});

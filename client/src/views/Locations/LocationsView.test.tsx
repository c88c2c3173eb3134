// The Ubicaciones view (CONTRACT §17): the catalogue's table and filter, the create/edit dialog checked with
// the server's schemas (409s on their fields), deactivation through a confirmation (a place in use says
// why inside it), reactivation, the CSV import (one bad line per row) and `yard:changed`.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { LOCATION_INPUT, UI_LOCATIONS, YARD_ERR, YARD_MSG } from '@shared/labels';
import type { Location } from '@shared/schemas';
import { json, mockFetch, sentBody } from '../../test/http';
import { useLocations } from '../../stores/locations';
import { LocationsView } from './LocationsView';
import { makeLocation } from './test-fixtures';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const socketHandlers = vi.hoisted(() => new Map<string, Set<(p: unknown) => void>>());
vi.mock('../../socket', async () => {
  const { useEffect, useRef } = await import('react');
  return {
    onResync: () => () => {},
    useResync: (load: () => void) => {
      const ref = useRef(load);
      useEffect(() => ref.current(), []);
    },
    useSocketEvent: (event: string, handler: (p: unknown) => void) => {
      const ref = useRef(handler);
      ref.current = handler;
      useEffect(() => {
        const fn = (p: unknown) => ref.current(p);
        if (!socketHandlers.has(event)) socketHandlers.set(event, new Set());
        socketHandlers.get(event)!.add(fn);
        return () => void socketHandlers.get(event)!.delete(fn);
      }, [event]);
    },
  };
});
const push = (event: string, payload: unknown) =>
  act(() => socketHandlers.get(event)?.forEach((h) => h(payload)));

const user = () => userEvent.setup({ delay: null });
const T = UI_LOCATIONS;

const bascula = makeLocation({
  code: 'BASCULA-1',
  name: 'Báscula Entrada',
  kind: 'bascula',
  zone: 'Accesos',
});
const dock = makeLocation({
  code: 'MUELLE-12',
  name: 'Muelle 12',
  capacity: 2,
  x: 4,
  y: 10,
  zone: 'Muelles',
});
const oldDock = makeLocation({ code: 'MUELLE-40', name: 'Muelle Viejo', zone: 'Muelles', active: false });

/** The server: GET /locations answers `catalogue`; any other call answers through `other`. */
function server(
  catalogue: () => Location[],
  other: (path: string, init: RequestInit) => Response = () => json(404, {}),
) {
  return mockFetch((path, init) =>
    path === '/locations' && (init.method ?? 'GET') === 'GET' ? json(200, catalogue()) : other(path, init),
  );
}
/** The calls that were not GET /locations. */
const writes = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.filter(([, init]) => (init?.method ?? 'GET') !== 'GET');

const rows = () => screen.getAllByTestId<HTMLTableRowElement>('location-row');
const row = (name: string) => rows().find((r) => within(r).queryByText(name))!;
const dialog = () => screen.getByRole('dialog');
const field = (label: string) => within(dialog()).getByLabelText(label);

async function renderView(catalogue: Location[] = [bascula, dock, oldDock]) {
  render(<LocationsView />);
  if (catalogue.length) await screen.findByText(catalogue[0].name);
}

beforeEach(() => {
  useLocations.setState({
    locations: [],
    loaded: false,
    failed: false,
    trailerPlaces: {},
    trailersLoaded: false,
  });
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Ubicaciones', { timeout: 20_000 }, () => {
  it('lists the whole catalogue: code, name, kind label, zone, capacity, cells and state', async () => {
    server(() => [bascula, dock, oldDock]);
    await renderView();
    expect(rows()).toHaveLength(3);
    const cells = within(row('Muelle 12'))
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(0, 8)).toEqual([
      'MUELLE-12',
      'Muelle 12',
      'Muelle',
      'Muelles',
      '2',
      '4',
      '10',
      'Activa',
    ]);
    expect(within(row('Báscula Entrada')).getByText('Báscula')).toBeInTheDocument();
    expect(within(row('Muelle Viejo')).getByText(T.state.inactive)).toBeInTheDocument();
    expect(
      within(row('Muelle Viejo')).getByRole('button', { name: T.actionLabels.reactivate('Muelle Viejo') }),
    ).toBeInTheDocument();
  });

  it('filters by code, name, zone or kind, accents and case aside', async () => {
    server(() => [bascula, dock, oldDock]);
    await renderView();
    const filter = screen.getByRole('searchbox', { name: T.filter });
    await user().type(filter, 'BASCULA');
    expect(rows().map((r) => r.cells[1].textContent)).toEqual(['Báscula Entrada']);
    expect(screen.getByText(T.shown(1, 3))).toBeInTheDocument();
    await user().clear(filter);
    await user().type(filter, 'muelles');
    expect(rows()).toHaveLength(2);
    await user().clear(filter);
    await user().type(filter, 'muelle-4');
    expect(rows().map((r) => r.cells[1].textContent)).toEqual(['Muelle Viejo']);
    await user().type(filter, 'x');
    expect(screen.queryAllByTestId('location-row')).toHaveLength(0);
    expect(screen.getByText(T.noMatch('muelle-4x'))).toBeInTheDocument();
  });

  it('an empty catalogue says so', async () => {
    server(() => []);
    await renderView([]);
    expect(await screen.findByText(T.empty)).toBeInTheDocument();
  });

  it("creates: the schema's messages first, then the POST with the normalised place; the row appears", async () => {
    const campa = makeLocation({ code: 'CAMPA-B-03', name: 'Campa B-03', zone: 'Campa B', x: 7, y: 3 });
    let catalogue = [dock];
    const fetch = server(
      () => catalogue,
      () => json(201, campa),
    );
    await renderView([dock]);
    await user().click(screen.getByRole('button', { name: T.actions.create }));
    expect(field(T.form.capacity)).toHaveValue(1);
    await user().click(within(dialog()).getByRole('button', { name: T.form.create }));
    expect(within(dialog()).getByText(LOCATION_INPUT.codeRequired)).toBeInTheDocument();
    expect(within(dialog()).getByText(LOCATION_INPUT.nameRequired)).toBeInTheDocument();
    expect(within(dialog()).getByText(LOCATION_INPUT.zoneRequired)).toBeInTheDocument();
    expect(within(dialog()).getAllByText(/La posición [xy] debe ser un número entero/)).toHaveLength(2);
    expect(field(T.form.code)).toHaveAttribute('aria-invalid', 'true');
    expect(writes(fetch)).toHaveLength(0);

    await user().type(field(T.form.code), 'campa-b-03');
    await user().type(field(T.form.name), '  Campa B-03 ');
    await user().type(field(T.form.zone), 'Campa B');
    await user().type(field(T.form.x), '7');
    await user().type(field(T.form.y), '3');
    catalogue = [dock, campa];
    await user().click(within(dialog()).getByRole('button', { name: T.form.create }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(T.toast.created('Campa B-03')));
    expect(sentBody(fetch, 1)).toEqual({
      code: 'CAMPA-B-03',
      name: 'Campa B-03',
      kind: 'muelle',
      zone: 'Campa B',
      capacity: 1,
      x: 7,
      y: 3,
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(row('Campa B-03')).toBeInTheDocument();
  });

  it('a taken code (409) is shown on its field and the dialog stays open', async () => {
    const fetch = server(
      () => [dock],
      () => json(409, { detail: YARD_ERR.codeTaken('MUELLE-12') }),
    );
    await renderView([dock]);
    await user().click(screen.getByRole('button', { name: T.actions.create }));
    await user().type(field(T.form.code), 'muelle-12');
    await user().type(field(T.form.name), 'Otro muelle');
    await user().type(field(T.form.zone), 'Muelles');
    await user().type(field(T.form.x), '1');
    await user().type(field(T.form.y), '1');
    await user().click(within(dialog()).getByRole('button', { name: T.form.create }));
    await within(dialog()).findByText(YARD_ERR.codeTaken('MUELLE-12'));
    expect(field(T.form.code)).toHaveAttribute('aria-invalid', 'true');
    expect(writes(fetch)).toHaveLength(1);
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('edits: sends only what changed; a refusal without a field is shown inside the dialog', async () => {
    let answer = json(200, { ...dock, capacity: 3 });
    const fetch = server(
      () => [dock],
      () => answer,
    );
    await renderView([dock]);
    await user().click(screen.getByRole('button', { name: T.actionLabels.edit('Muelle 12') }));
    expect(field(T.form.code)).toHaveValue('MUELLE-12');
    await user().clear(field(T.form.capacity));
    await user().type(field(T.form.capacity), '3');
    await user().click(within(dialog()).getByRole('button', { name: T.form.save }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(T.toast.saved('Muelle 12')));
    const [put] = writes(fetch);
    expect(put[0]).toContain(`/admin/locations/${dock.id}`);
    expect(put[1]?.method).toBe('PUT');
    expect(JSON.parse(String(put[1]?.body))).toEqual({ capacity: 3 });
    expect(within(row('Muelle 12')).getAllByRole('cell')[4]).toHaveTextContent('3');

    // Into a gate while it holds a trailer: the 409 has no field of its own.
    answer = json(409, { detail: YARD_ERR.locationInUse('Muelle 12') });
    await user().click(screen.getByRole('button', { name: T.actionLabels.edit('Muelle 12') }));
    await user().clear(field(T.form.zone));
    await user().type(field(T.form.zone), 'Puertas');
    await user().click(within(dialog()).getByRole('button', { name: T.form.save }));
    expect((await within(dialog()).findByRole('alert')).textContent).toBe(
      YARD_ERR.locationInUse('Muelle 12'),
    );
  });

  it('an unchanged edit closes without a request', async () => {
    const fetch = server(() => [dock]);
    await renderView([dock]);
    await user().click(screen.getByRole('button', { name: T.actionLabels.edit('Muelle 12') }));
    await user().click(within(dialog()).getByRole('button', { name: T.form.save }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(writes(fetch)).toHaveLength(0);
  });

  it('deactivates after a confirmation; a place in use (409) says why inside it and it stays open', async () => {
    let answer = json(409, { detail: YARD_ERR.locationInUse('Muelle 12') });
    const fetch = server(
      () => [dock],
      () => answer,
    );
    await renderView([dock]);
    await user().click(screen.getByRole('button', { name: T.actionLabels.deactivate('Muelle 12') }));
    const confirm = within(dialog()).getByRole('button', { name: T.deactivateDialog.confirm });
    await user().click(confirm);
    expect((await within(dialog()).findByRole('alert')).textContent).toBe(
      YARD_ERR.locationInUse('Muelle 12'),
    );
    expect(writes(fetch)[0][1]?.method).toBe('DELETE');

    answer = json(200, { message: YARD_MSG.deactivated });
    await user().click(confirm);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(YARD_MSG.deactivated));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(row('Muelle 12')).getByText(T.state.inactive)).toBeInTheDocument();
  });

  it('reactivates with PUT {active: true}', async () => {
    const fetch = server(
      () => [oldDock],
      () => json(200, { ...oldDock, active: true }),
    );
    await renderView([oldDock]);
    await user().click(screen.getByRole('button', { name: T.actionLabels.reactivate('Muelle Viejo') }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(T.toast.reactivated('Muelle Viejo')));
    expect(JSON.parse(String(writes(fetch)[0][1]?.body))).toEqual({ active: true });
    expect(within(row('Muelle Viejo')).getByText(T.state.active)).toBeInTheDocument();
  });

  it('reloads on yard:changed', async () => {
    let catalogue = [dock];
    server(() => catalogue);
    await renderView([dock]);
    catalogue = [dock, bascula];
    await push('yard:changed', { location_ids: [bascula.id] });
    expect(await screen.findByText('Báscula Entrada')).toBeInTheDocument();
  });
});

describe('Importar CSV', { timeout: 20_000 }, () => {
  const D = T.importDialog;
  const csvText = 'code,name,kind,zone,capacity,x,y\nMUELLE-50,Muelle 50,muelle,Muelles,1,9,0';

  it('shows the expected header; sends the pasted text; a refusal lists every bad line in the dialog', async () => {
    const lines = [
      YARD_ERR.csvLine(2, 'kind: Tipo de ubicación no válido'),
      YARD_ERR.csvLine(4, YARD_ERR.csvColumns(6)),
    ];
    const fetch = server(
      () => [dock],
      () => json(400, { detail: YARD_ERR.csvLines(lines) }),
    );
    await renderView([dock]);
    await user().click(screen.getByRole('button', { name: T.actions.import }));
    expect(within(dialog()).getByText('code,name,kind,zone,capacity,x,y')).toBeInTheDocument();
    await user().click(within(dialog()).getByRole('button', { name: D.confirm }));
    expect(within(dialog()).getByText(LOCATION_INPUT.csvRequired)).toBeInTheDocument();
    expect(writes(fetch)).toHaveLength(0);

    await user().click(field(D.text));
    await user().paste(csvText);
    await user().click(within(dialog()).getByRole('button', { name: D.confirm }));
    const list = await within(dialog()).findByRole('list', { name: D.linesTitle });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(lines);
    expect(within(dialog()).getByRole('alert')).toHaveTextContent(YARD_ERR.csvLines([]).trim());
    expect(JSON.parse(String(writes(fetch)[0][1]?.body))).toEqual({ csv: csvText });
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('a refusal that names no line (a wrong header) is shown whole', async () => {
    server(
      () => [dock],
      () => json(400, { detail: YARD_ERR.csvHeader }),
    );
    await renderView([dock]);
    await user().click(screen.getByRole('button', { name: T.actions.import }));
    await user().click(field(D.text));
    await user().paste('codigo;nombre');
    await user().click(within(dialog()).getByRole('button', { name: D.confirm }));
    expect((await within(dialog()).findByRole('alert')).textContent).toBe(YARD_ERR.csvHeader);
  });

  it('reads a chosen file; success toasts the message, closes and shows the imported rows', async () => {
    const imported = makeLocation({ code: 'MUELLE-50', name: 'Muelle 50', zone: 'Muelles' });
    let catalogue = [dock];
    const fetch = server(
      () => catalogue,
      () => {
        catalogue = [dock, imported];
        return json(200, { message: YARD_MSG.imported(1, 0), created: 1, updated: 0 });
      },
    );
    await renderView([dock]);
    await user().click(screen.getByRole('button', { name: T.actions.import }));
    await user().upload(
      screen.getByLabelText(D.chooseFile),
      new File([csvText], 'patio.csv', { type: 'text/csv' }),
    );
    await waitFor(() => expect(field(D.text)).toHaveValue(csvText));
    expect(within(dialog()).getByText(D.fileRead('patio.csv'))).toBeInTheDocument();
    await user().click(within(dialog()).getByRole('button', { name: D.confirm }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(YARD_MSG.imported(1, 0)));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText('Muelle 50')).toBeInTheDocument();
    expect(JSON.parse(String(writes(fetch)[0][1]?.body))).toEqual({ csv: csvText });
  });
});

// 'Nueva Tarea' and the edit dialog: SPEC §5 validation, the submit disabled in flight, the trailer's 409
// inside the form (creation errors are otherwise only logged, SPEC §8), the created task in the store;
// CONTRACT §17: origin and destination suggest the catalogue's places and send the picked one's id, free
// text is marked, the origin starts as the trailer's current place, a full destination's 409 on its field.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import {
  DEADLINE_TEXT,
  ERR,
  LOAD_STATE_LABELS,
  TOAST,
  UI_BOARD,
  UI_COMMON,
  UI_DEADLINE,
  UI_PLACE_INPUT,
  VEHICLE_TYPE_OPTIONS,
  YARD_ERR,
} from '@shared/labels';
import { json, mockFetch } from '../../test/http';
import { makeTask } from '../../test/tasks';
import { useLocations, type TrailerPlace } from '../../stores/locations';
import { useTasks } from '../../stores/tasks';
import { makeLocation } from '../../views/Locations/test-fixtures';
import { TaskFormModal } from './TaskFormModal';

/** No pause between keystrokes: this machine is slow enough. */
const user = () => userEvent.setup({ delay: null });

/** The JSON body of the n-th call that sent one (the form's GET /trailers?q= reads aside). */
const sentBody = (fn: ReturnType<typeof mockFetch>, n = 0): unknown =>
  JSON.parse(String(fn.mock.calls.filter((c) => c[1]?.body !== undefined)[n]?.[1]?.body ?? 'null'));

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

/** What the form below creates, as the server answers it. */
const created = makeTask({
  title: 'Recolocar',
  origin: 'Muelle 7',
  destination: 'Campa Sur',
  trailer_id: 'R-77-XYZ',
  priority: 'high',
  vehicle_type: 'swap',
});

const bascula = makeLocation({
  code: 'BASCULA-1',
  name: 'Báscula Entrada',
  kind: 'bascula',
  zone: 'Accesos',
});
const campaB3 = makeLocation({ code: 'CAMPA-B-03', name: 'Campa B-03', kind: 'campa', zone: 'Campa B' });
const muelle12 = makeLocation({ code: 'MUELLE-12', name: 'Muelle 12', zone: 'Muelles' });
const closedDock = makeLocation({ code: 'MUELLE-99', name: 'Muelle Cerrado', active: false });
const at = (place: typeof campaB3): TrailerPlace => ({
  id: place.id,
  code: place.code,
  name: place.name,
  zone: place.zone,
  kind: place.kind,
});

beforeEach(() => {
  // The catalogue, the yard's trailers and its room are already loaded: opening the form fetches nothing
  // more.
  useLocations.setState({
    locations: [bascula, campaB3, muelle12, closedDock],
    loaded: true,
    failed: false,
    trailerPlaces: { 'R-55': at(campaB3) },
    trailersLoaded: true,
    room: { [bascula.id]: 1, [campaB3.id]: 2, [muelle12.id]: 0 },
    roomLoaded: true,
  });
  useTasks.getState().reset();
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const dialog = () => screen.getByRole('dialog');
const field = (label: string) => within(dialog()).getByLabelText(label);
const submit = (name: string = UI_BOARD.form.create) =>
  user().click(within(dialog()).getByRole('button', { name }));

async function fill() {
  await user().selectOptions(field(UI_BOARD.form.movement), 'Recolocar');
  await user().type(field(UI_BOARD.form.origin), '  Muelle 7 ');
  await user().type(field(UI_BOARD.form.destination), 'Campa Sur');
  await user().type(field(UI_BOARD.form.trailer), 'r-77-xyz');
  await user().selectOptions(field(UI_BOARD.form.priority), 'high');
  await user().selectOptions(field(UI_BOARD.form.vehicleType), VEHICLE_TYPE_OPTIONS.swap);
}

describe('Nueva Tarea', { timeout: 20_000 }, () => {
  it('requires movement type, origin, destination and trailer, and sends nothing', async () => {
    const fetch = mockFetch(() => json(201, created));
    render(<TaskFormModal open onOpenChange={vi.fn()} />);
    expect(field(UI_BOARD.form.priority)).toHaveValue('normal');
    expect(field(UI_BOARD.form.vehicleType)).toHaveValue('semiremolque');
    await submit();
    for (const text of [
      'El tipo de movimiento es obligatorio',
      'El origen es obligatorio',
      'El destino es obligatorio',
      'El remolque es obligatorio',
    ])
      expect(within(dialog()).getByText(text)).toBeInTheDocument();
    expect(field(UI_BOARD.form.trailer)).toHaveAttribute('aria-invalid', 'true');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('offers a known trailer typed otherwise (¿R-4136-FVR?), fills its place as origin and takes its spelling', async () => {
    const record = {
      trailer_id: 'R-4136-FVR',
      kind: 'lona',
      load_state: 'cargado',
      adr: false,
      reefer_setpoint_c: null,
      damaged: false,
      location: { id: muelle12.id, code: muelle12.code, name: muelle12.name },
    };
    const fetch = mockFetch((path) =>
      path === '/trailers' ? json(200, { trailers: [record] }) : json(201, created),
    );
    render(<TaskFormModal open onOpenChange={vi.fn()} />);
    await user().type(field(UI_BOARD.form.trailer), 'r4136fvr');
    const offer = await within(dialog()).findByRole('button', { name: '¿R-4136-FVR?' });
    expect(String(fetch.mock.calls[0]![0])).toContain('/api/trailers?q=r4136fvr');
    expect(field(UI_BOARD.form.origin)).toHaveValue('Muelle 12');
    await user().click(offer);
    expect(field(UI_BOARD.form.trailer)).toHaveValue('R-4136-FVR');
    await waitFor(() => expect(within(dialog()).queryByTestId('trailer-offer')).toBeNull());
    expect(field(UI_BOARD.form.origin)).toHaveValue('Muelle 12');
  });

  it('creates: trimmed and upper-cased payload, disabled while in flight, toast, task in the store, closed', async () => {
    let answer!: (r: Response) => void;
    const fetch = mockFetch(() => new Promise<Response>((r) => (answer = r)));
    const onOpenChange = vi.fn();
    render(<TaskFormModal open onOpenChange={onOpenChange} />);
    await fill();
    await submit();
    expect(within(dialog()).getByRole('button', { name: UI_BOARD.form.creating })).toBeDisabled();
    expect(sentBody(fetch)).toEqual({
      title: 'Recolocar',
      origin: 'Muelle 7',
      destination: 'Campa Sur',
      trailer_id: 'R-77-XYZ',
      description: null,
      external_ref: null,
      priority: 'high',
      vehicle_type: 'swap',
    });
    answer(json(201, created));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(toast.success).toHaveBeenCalledWith(TOAST.taskCreated);
    expect(useTasks.getState().byId[created.id]).toEqual(created);
  });

  it("shows the trailer's 409 on its field, with no toast, and stays open", async () => {
    const detail = ERR.trailerBusy('R-77-XYZ');
    mockFetch(() => json(409, { detail }));
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onOpenChange = vi.fn();
    render(<TaskFormModal open onOpenChange={onOpenChange} />);
    await fill();
    await submit();
    await within(dialog()).findByText(detail);
    expect(field(UI_BOARD.form.trailer)).toHaveAttribute('aria-invalid', 'true');
    expect(toast.error).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalled();
    expect(onOpenChange).not.toHaveBeenCalled();
    // Cancel closes it.
    await user().click(within(dialog()).getByRole('button', { name: UI_COMMON.cancel }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});

describe('edit', { timeout: 20_000 }, () => {
  it('sends only the changed fields (with the version it opened) and toasts the SPEC §8 text', async () => {
    useTasks.getState().apply(created);
    const fetch = mockFetch(() => json(200, { ...created, destination: 'Puerta 2', version: 2 }));
    const onOpenChange = vi.fn();
    render(<TaskFormModal open onOpenChange={onOpenChange} task={created} />);
    expect(field(UI_BOARD.form.trailer)).toHaveValue('R-77-XYZ');
    await user().clear(field(UI_BOARD.form.destination));
    await user().type(field(UI_BOARD.form.destination), 'Puerta 2');
    await submit(UI_BOARD.form.save);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(TOAST.taskUpdated));
    expect(fetch.mock.calls[0][1]?.method).toBe('PUT');
    expect(sentBody(fetch)).toEqual({ destination: 'Puerta 2', version: 1 });
    expect(useTasks.getState().byId[created.id].destination).toBe('Puerta 2');
  });

  it('a refused edit toasts the server detail', async () => {
    mockFetch(() => json(409, { detail: ERR.trailerBusy('R-1') }));
    render(<TaskFormModal open onOpenChange={vi.fn()} task={created} />);
    await user().clear(field(UI_BOARD.form.trailer));
    await user().type(field(UI_BOARD.form.trailer), 'R-1');
    await submit(UI_BOARD.form.save);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(ERR.trailerBusy('R-1')));
  });
});

describe('Carga al terminar (CONTRACT §19 load_state_after)', { timeout: 20_000 }, () => {
  const options = () =>
    within(field(UI_BOARD.form.loadStateAfter))
      .getAllByRole('option')
      .map((o) => o.textContent);

  it('creating: starts at `Sin cambio` (omitted from the body); a load state picked is sent', async () => {
    const fetch = mockFetch(() => json(201, { ...created, load_state_after: 'vacio' }));
    render(<TaskFormModal open onOpenChange={vi.fn()} />);
    expect(options()).toEqual(['Sin cambio', 'Cargado', 'Vacío', 'Desconocido']);
    expect(field(UI_BOARD.form.loadStateAfter)).toHaveValue('');
    await fill();
    await user().selectOptions(field(UI_BOARD.form.loadStateAfter), LOAD_STATE_LABELS.vacio);
    await submit();
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(TOAST.taskCreated));
    expect(sentBody(fetch)).toMatchObject({ trailer_id: 'R-77-XYZ', load_state_after: 'vacio' });
  });

  it('editing: a value set is sent; back to `Sin cambio` sends null; untouched it is not sent', async () => {
    const loaded = { ...created, load_state_after: 'cargado' as const };
    const fetch = mockFetch(() => json(200, { ...loaded, load_state_after: null, version: 2 }));
    const { unmount } = render(<TaskFormModal open onOpenChange={vi.fn()} task={loaded} />);
    expect(field(UI_BOARD.form.loadStateAfter)).toHaveValue('cargado');
    await user().selectOptions(field(UI_BOARD.form.loadStateAfter), UI_BOARD.form.loadStateUnchanged);
    await submit(UI_BOARD.form.save);
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(sentBody(fetch)).toEqual({ load_state_after: null, version: 1 });
    unmount();

    render(<TaskFormModal open onOpenChange={vi.fn()} task={created} />);
    await user().selectOptions(field(UI_BOARD.form.loadStateAfter), LOAD_STATE_LABELS.desconocido);
    await user().selectOptions(field(UI_BOARD.form.priority), 'normal');
    await submit(UI_BOARD.form.save);
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    expect(sentBody(fetch, 1)).toEqual({ priority: 'normal', load_state_after: 'desconocido', version: 1 });
  });
});

describe('edit: someone else changed the task meanwhile (CONTRACT §5 version)', { timeout: 20_000 }, () => {
  const conflict = () => json(409, { detail: ERR.versionConflict });
  const alertText = () => within(dialog()).findByRole('alert');

  it('sends the version it opened with; a 409 keeps it open, says why inside, shows the fresh task; saving again sends the new version', async () => {
    useTasks.getState().apply(created);
    const fetch = mockFetch((_path, init) => {
      if (init.method !== 'PUT') return json(500, {});
      const body = JSON.parse(String(init.body)) as { version: number };
      return body.version === 1
        ? conflict()
        : json(200, { ...created, destination: 'Muelle 9', origin: 'Puerta 4', version: 3 });
    });
    const onOpenChange = vi.fn();
    render(<TaskFormModal open onOpenChange={onOpenChange} task={created} />);
    await user().clear(field(UI_BOARD.form.origin));
    await user().type(field(UI_BOARD.form.origin), 'Puerta 3');
    // Another staff member saves first; the socket brings their change to the store.
    useTasks.getState().apply({ ...created, destination: 'Muelle 9', version: 2 });
    await submit(UI_BOARD.form.save);

    expect((await alertText()).textContent).toBe(ERR.versionConflict);
    expect(sentBody(fetch)).toEqual({ origin: 'Puerta 3', version: 1 });
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(toast.success).not.toHaveBeenCalled();
    // The fields now show the task as it is: the other change, and the user's edit to redo.
    await waitFor(() => expect(field(UI_BOARD.form.destination)).toHaveValue('Muelle 9'));
    expect(field(UI_BOARD.form.origin)).toHaveValue('Muelle 7');
    expect(field(UI_BOARD.form.trailer)).not.toHaveAttribute('aria-invalid', 'true');
    expect(useTasks.getState().byId[created.id].origin).toBe('Muelle 7');

    await user().clear(field(UI_BOARD.form.origin));
    await user().type(field(UI_BOARD.form.origin), 'Puerta 4');
    await submit(UI_BOARD.form.save);
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(sentBody(fetch, 1)).toEqual({ origin: 'Puerta 4', version: 2 });
    expect(useTasks.getState().byId[created.id]).toMatchObject({
      destination: 'Muelle 9',
      origin: 'Puerta 4',
    });
  });

  it('without a newer copy in the store, it reloads the board for the fresh values', async () => {
    useTasks.getState().apply(created);
    const fresh = { ...created, priority: 'low' as const, description: 'Con cuidado', version: 4 };
    const fetch = mockFetch((path, init) =>
      init.method === 'PUT' ? conflict() : path === '/tasks' ? json(200, [fresh]) : json(404, {}),
    );
    render(<TaskFormModal open onOpenChange={vi.fn()} task={created} />);
    await user().type(field(UI_BOARD.form.description), 'Urgente');
    await submit(UI_BOARD.form.save);
    expect((await alertText()).textContent).toBe(ERR.versionConflict);
    await waitFor(() => expect(field(UI_BOARD.form.priority)).toHaveValue('low'));
    expect(field(UI_BOARD.form.description)).toHaveValue('Con cuidado');
    expect(fetch.mock.calls.map(([, init]) => init?.method ?? 'GET')).toEqual(['PUT', 'GET']);
  });
});

describe('origin and destination from the catalogue (CONTRACT §17)', { timeout: 20_000 }, () => {
  // The suggestions, not the native selects' options.
  const options = () => within(within(dialog()).getByRole('listbox')).getAllByRole('option');

  async function fillOthers() {
    await user().selectOptions(field(UI_BOARD.form.movement), 'Mover');
    await user().type(field(UI_BOARD.form.trailer), 'R-9');
  }

  it('suggests places by name or code, accents and case aside, the destination with its room; the keyboard picks one and its id is sent', async () => {
    const fetch = mockFetch(() => json(201, created));
    render(<TaskFormModal open onOpenChange={vi.fn()} />);
    await fillOthers();
    const destination = field(UI_BOARD.form.destination);
    await user().type(destination, 'BASCU');
    expect(destination).toHaveAttribute('aria-expanded', 'true');
    expect(options().map((o) => o.textContent)).toEqual(['Báscula EntradaBASCULA-1 · Accesos1 libre']);
    await user().keyboard('{ArrowDown}');
    expect(destination).toHaveAttribute('aria-activedescendant', options()[0].id);
    await user().keyboard('{Enter}');
    expect(destination).toHaveValue('Báscula Entrada');
    expect(destination).toHaveAttribute('aria-expanded', 'false');

    // A code's fragment finds it too; a deactivated place is never offered; the origin shows no room.
    const origin = field(UI_BOARD.form.origin);
    await user().type(origin, 'muelle');
    expect(options().map((o) => o.textContent)).toEqual(['Muelle 12MUELLE-12 · Muelles']);
    await user().click(options()[0]);
    expect(origin).toHaveValue('Muelle 12');
    // The same place as a destination: no room left.
    await user().clear(destination);
    await user().type(destination, 'muelle');
    expect(options().map((o) => o.textContent)).toEqual(['Muelle 12MUELLE-12 · Muellescompleta']);
    await user().clear(destination);
    await user().type(destination, 'bascula entrada{ArrowDown}{Enter}');

    await submit();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(sentBody(fetch)).toMatchObject({
      origin: 'Muelle 12',
      origin_location_id: muelle12.id,
      destination: 'Báscula Entrada',
      destination_location_id: bascula.id,
    });
  });

  it('typing after a pick drops the id: the server maps the text', async () => {
    const fetch = mockFetch(() => json(201, created));
    render(<TaskFormModal open onOpenChange={vi.fn()} />);
    await fillOthers();
    await user().type(field(UI_BOARD.form.origin), 'Muelle 7');
    await user().type(field(UI_BOARD.form.destination), 'campa b');
    await user().keyboard('{ArrowDown}{Enter}');
    expect(field(UI_BOARD.form.destination)).toHaveValue('Campa B-03');
    await user().type(field(UI_BOARD.form.destination), ' (fondo)');
    await submit();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    const body = sentBody(fetch) as Record<string, unknown>;
    expect(body.destination).toBe('Campa B-03 (fondo)');
    expect(body).not.toHaveProperty('destination_location_id');
    expect(body).not.toHaveProperty('origin_location_id');
  });

  it('marks free text `Fuera del catálogo` (described by the mark), not a name or code of the catalogue', async () => {
    render(<TaskFormModal open onOpenChange={vi.fn()} />);
    const destination = field(UI_BOARD.form.destination);
    await user().type(destination, 'Nave 4');
    const mark = within(dialog()).getByText(UI_PLACE_INPUT.offCatalogue);
    expect(destination.getAttribute('aria-describedby')).toContain(mark.parentElement!.id);
    await user().clear(destination);
    await user().type(destination, 'campa-b-03');
    expect(within(dialog()).queryByText(UI_PLACE_INPUT.offCatalogue)).toBeNull();
    await user().clear(destination);
    expect(within(dialog()).queryByText(UI_PLACE_INPUT.offCatalogue)).toBeNull();
  });

  it("creating: the trailer's current place fills an empty origin, with its id, and follows the trailer typed", async () => {
    const fetch = mockFetch(() => json(201, created));
    render(<TaskFormModal open onOpenChange={vi.fn()} />);
    await user().selectOptions(field(UI_BOARD.form.movement), 'Mover');
    await user().type(field(UI_BOARD.form.trailer), 'r-55');
    expect(field(UI_BOARD.form.origin)).toHaveValue('Campa B-03');
    // Another trailer, not in the yard: the filled origin goes.
    await user().type(field(UI_BOARD.form.trailer), '6');
    expect(field(UI_BOARD.form.origin)).toHaveValue('');
    await user().type(field(UI_BOARD.form.trailer), '{Backspace}');
    expect(field(UI_BOARD.form.origin)).toHaveValue('Campa B-03');
    await user().type(field(UI_BOARD.form.destination), 'Muelle 12');
    await submit();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(sentBody(fetch)).toMatchObject({
      origin: 'Campa B-03',
      origin_location_id: campaB3.id,
      trailer_id: 'R-55',
    });
  });

  it('creating: an origin the user typed stays whatever trailer is typed', async () => {
    render(<TaskFormModal open onOpenChange={vi.fn()} />);
    await user().type(field(UI_BOARD.form.origin), 'Puerta 2');
    await user().type(field(UI_BOARD.form.trailer), 'R-55');
    expect(field(UI_BOARD.form.origin)).toHaveValue('Puerta 2');
  });

  it('a draft (the Patio map) keeps its places and ids; editing never fills the origin from the trailer', async () => {
    const fetch = mockFetch(() => json(201, created));
    const draft = {
      origin: campaB3.name,
      origin_location_id: campaB3.id,
      destination: muelle12.name,
      destination_location_id: muelle12.id,
      trailer_id: 'R-55',
    };
    const { unmount } = render(<TaskFormModal open onOpenChange={vi.fn()} draft={draft} />);
    await user().selectOptions(field(UI_BOARD.form.movement), 'Mover');
    await submit();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(sentBody(fetch)).toMatchObject(draft);
    unmount();

    const task = makeTask({ trailer_id: 'R-55', origin: 'Nave 4' });
    render(<TaskFormModal open onOpenChange={vi.fn()} task={task} />);
    expect(field(UI_BOARD.form.origin)).toHaveValue('Nave 4');
  });

  it("a full destination's 409 is shown on the destination field, with no toast", async () => {
    const detail = YARD_ERR.locationFull('Muelle 12');
    mockFetch(() => json(409, { detail }));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const onOpenChange = vi.fn();
    render(<TaskFormModal open onOpenChange={onOpenChange} />);
    await fillOthers();
    await user().type(field(UI_BOARD.form.origin), 'Puerta 2');
    await user().type(field(UI_BOARD.form.destination), 'muelle 12');
    await submit();
    await within(dialog()).findByText(detail);
    expect(field(UI_BOARD.form.destination)).toHaveAttribute('aria-invalid', 'true');
    expect(field(UI_BOARD.form.trailer)).not.toHaveAttribute('aria-invalid', 'true');
    expect(toast.error).not.toHaveBeenCalled();
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it('editing: a picked place is sent with its id; an edit re-aimed to a full place says so on the destination', async () => {
    const task = makeTask({ destination: 'Campa B-03', destination_location_id: campaB3.id });
    useTasks.getState().apply(task);
    const fetch = mockFetch(() => json(409, { detail: YARD_ERR.locationFull('Muelle 12') }));
    render(<TaskFormModal open onOpenChange={vi.fn()} task={task} />);
    await user().clear(field(UI_BOARD.form.destination));
    await user().type(field(UI_BOARD.form.destination), '12');
    await user().keyboard('{ArrowDown}{Enter}');
    await submit(UI_BOARD.form.save);
    await within(dialog()).findByText(YARD_ERR.locationFull('Muelle 12'), { selector: '[role="alert"]' });
    expect(sentBody(fetch)).toEqual({
      destination: 'Muelle 12',
      destination_location_id: muelle12.id,
      version: 1,
    });
    expect(field(UI_BOARD.form.destination)).toHaveAttribute('aria-invalid', 'true');
    expect(field(UI_BOARD.form.trailer)).not.toHaveAttribute('aria-invalid', 'true');
  });
});

describe('loading the catalogue', { timeout: 20_000 }, () => {
  /** Lets any load the form would start reach fetch. */
  const settle = () => new Promise((r) => setTimeout(r, 10));

  it('a closed form fetches nothing; the first opening loads the catalogue, the trailers and the room, the next reuse them', async () => {
    useLocations.setState({
      locations: [],
      loaded: false,
      trailerPlaces: {},
      trailersLoaded: false,
      room: {},
      roomLoaded: false,
    });
    const fetch = mockFetch((path) =>
      path === '/locations'
        ? json(200, [muelle12])
        : path === '/yard/trailers'
          ? json(200, [{ trailer_id: 'R-55', location: at(muelle12), since: '', open_task: null }])
          : path === '/yard'
            ? json(200, [{ ...muelle12, trailers: [], incoming: [], free: 1 }])
            : json(404, {}),
    );
    const { rerender } = render(<TaskFormModal open={false} onOpenChange={vi.fn()} />);
    await settle();
    expect(fetch).not.toHaveBeenCalled();
    rerender(<TaskFormModal open onOpenChange={vi.fn()} />);
    await user().type(field(UI_BOARD.form.trailer), 'R-55');
    await waitFor(() => expect(field(UI_BOARD.form.origin)).toHaveValue('Muelle 12'));
    rerender(<TaskFormModal open={false} onOpenChange={vi.fn()} />);
    rerender(<TaskFormModal open onOpenChange={vi.fn()} />);
    await settle();
    expect(fetch.mock.calls.map(([url]) => new URL(String(url), 'http://x').pathname).sort()).toEqual([
      '/api/locations',
      '/api/yard',
      '/api/yard/trailers',
    ]);
    await user().type(field(UI_BOARD.form.destination), 'muelle');
    expect(within(screen.getByRole('listbox')).getByRole('option')).toHaveTextContent(
      'Muelle 12MUELLE-12 · Muelles1 libre',
    );
  });
});

describe('Hora límite (CONTRACT §20)', { timeout: 20_000 }, () => {
  /** Only Date is faked: the user events still run on real timers. */
  const clockAt = (iso: string) => vi.useFakeTimers({ now: Date.parse(iso), toFake: ['Date'] });
  afterEach(() => vi.useRealTimers());
  const time = () => field(UI_DEADLINE.field);
  const setTime = (value: string) => fireEvent.change(time(), { target: { value } });
  const day = () => within(dialog()).getByRole('combobox', { name: UI_DEADLINE.day });

  it('creating: Hoy / Mañana and a Madrid time become a UTC due_at; none is omitted', async () => {
    clockAt('2026-11-27T17:00:00.000Z'); // 18:00 in Madrid (winter, UTC+1)
    const fetch = mockFetch(() => json(201, created));
    render(<TaskFormModal open onOpenChange={vi.fn()} />);
    expect(day()).toHaveValue('today');
    expect(time()).toHaveValue('');
    await fill();
    setTime('21:30');
    await submit();
    await waitFor(() => expect(sentBody(fetch)).toMatchObject({ due_at: '2026-11-27T20:30:00.000Z' }));
  });

  it('Mañana across the spring DST change: 10:00 is summer time (UTC+2)', async () => {
    clockAt('2026-03-28T12:00:00.000Z');
    const fetch = mockFetch(() => json(201, created));
    render(<TaskFormModal open onOpenChange={vi.fn()} />);
    await fill();
    await user().selectOptions(day(), UI_DEADLINE.tomorrow);
    setTime('10:00');
    await submit();
    await waitFor(() => expect(sentBody(fetch)).toMatchObject({ due_at: '2026-03-29T08:00:00.000Z' }));
  });

  it('a past time is refused on the field without sending; the server refusal is shown there too', async () => {
    clockAt('2026-11-27T17:00:00.000Z');
    const fetch = mockFetch(() => json(400, { detail: DEADLINE_TEXT.tooFar }));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<TaskFormModal open onOpenChange={vi.fn()} />);
    await fill();
    setTime('10:00');
    await submit();
    expect(within(dialog()).getByRole('alert')).toHaveTextContent(DEADLINE_TEXT.past);
    expect(time()).toHaveAttribute('aria-invalid', 'true');
    // Nothing sent (the trailer lookup aside).
    expect(sentBody(fetch)).toBeNull();
    setTime('22:00');
    expect(time()).toHaveAttribute('aria-invalid', 'false');
    await submit();
    await waitFor(() => expect(time()).toHaveAttribute('aria-invalid', 'true'));
    expect(within(dialog()).getByText(DEADLINE_TEXT.tooFar)).toBeInTheDocument();
  });

  it('editing: shows the deadline; untouched it is not sent; cleared it is sent as null', async () => {
    clockAt('2026-11-27T17:00:00.000Z');
    const task = { ...created, due_at: '2026-11-28T05:00:00.000Z' };
    const fetch = mockFetch(() => json(200, { ...task, version: 2 }));
    render(<TaskFormModal open onOpenChange={vi.fn()} task={task} />);
    expect(day()).toHaveValue('tomorrow');
    expect(time()).toHaveValue('06:00');
    await user().clear(field(UI_BOARD.form.destination));
    await user().type(field(UI_BOARD.form.destination), 'Puerta 2');
    await submit(UI_BOARD.form.save);
    await waitFor(() => expect(sentBody(fetch)).toEqual({ destination: 'Puerta 2', version: 1 }));
    cleanup();
    render(<TaskFormModal open onOpenChange={vi.fn()} task={task} />);
    await user().click(within(dialog()).getByRole('button', { name: UI_DEADLINE.clear }));
    expect(time()).toHaveValue('');
    await submit(UI_BOARD.form.save);
    await waitFor(() => expect(sentBody(fetch, 1)).toEqual({ due_at: null, version: 1 }));
  });

  it('a deadline beyond tomorrow (set through the API) is shown and kept unless changed', async () => {
    clockAt('2026-11-27T17:00:00.000Z');
    const task = { ...created, due_at: '2026-11-30T10:00:00.000Z' };
    const fetch = mockFetch(() => json(200, { ...task, version: 2 }));
    render(<TaskFormModal open onOpenChange={vi.fn()} task={task} />);
    expect(within(dialog()).getByText(UI_DEADLINE.kept('Antes del 30/11 11:00'))).toBeInTheDocument();
    expect(time()).toHaveValue('');
    // Choosing a day alone changes nothing.
    await user().selectOptions(day(), UI_DEADLINE.tomorrow);
    await user().selectOptions(field(UI_BOARD.form.priority), 'low');
    await submit(UI_BOARD.form.save);
    await waitFor(() => expect(sentBody(fetch)).toEqual({ priority: 'low', version: 1 }));
  });
});

// The Portería in jsdom (CONTRACT §19): an entry filled from a known trailer's record, with a carrier
// suggested from the visits seen, a chosen place, a failed checklist item and a photo, and the body it sends;
// the refusal `ya está en el patio` and its `Dar salida allí y registrar la entrada`; the trucks in the yard
// with their stay ticking and their wait amber past 1 h and red past 2 h, kept live by `gate:changed`.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { GATE_ERR, UI_GATE } from '@shared/labels';
import type { GateEntryInput, GateSuggestion, GateVisit, Trailer } from '@shared/schemas';
import { json, mockFetch } from '../../test/http';
import { resetSessionStores } from '../../stores/session-end';
import { useSession } from '../../stores/session';
import { GateView } from './GateView';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

/** The socket events the view listens to: a test fires them as the server would. */
const socketHandlers = vi.hoisted(() => new Map<string, (payload: unknown) => void>());
vi.mock('../../socket', () => import('../../test/socket').then((m) => m.stillSocketHooks(socketHandlers)));

const MIN = 60_000;
const NOW = Date.parse('2026-11-27T10:00:00.000Z'); // 11:00 in Madrid
const ago = (minutes: number) => new Date(NOW - minutes * MIN).toISOString();

const visit = (id: string, fields: Partial<GateVisit> = {}): GateVisit => ({
  id,
  truck_plate: `${id.toUpperCase()}-BCD`,
  carrier: 'Transportes García',
  driver_name: null,
  appointment_at: null,
  entered_at: ago(10),
  exited_at: null,
  stay_s: 600,
  wait_s: 600,
  dropped_trailer_id: null,
  picked_trailer_id: null,
  entry_seal: null,
  exit_seal: null,
  seal_mismatch: false,
  ...fields,
});

const RECORD: Trailer = {
  trailer_id: 'R-4136-FVR',
  kind: 'frigorifico',
  load_state: 'cargado',
  carrier: 'Frío Sur',
  seal: 'S-100',
  reference: 'PED-77',
  adr: true,
  reefer_setpoint_c: -18,
  damaged: false,
  damage_note: null,
  notes: null,
  in_yard: false,
  location: null,
  since: null,
  version: 3,
  updated_at: ago(600),
};

const suggestion = (n: number, free: number): GateSuggestion => ({
  location: {
    id: `00000000-0000-4000-8000-00000000000${n}`,
    code: `C-${n}`,
    name: `Campa ${n}`,
    kind: 'campa',
    zone: 'Campa',
  },
  free,
});
const SUGGESTIONS = [suggestion(1, 3), suggestion(2, 1)];
const PHOTO_ID = '7d3c1f9e-2b4a-4c8e-9f1a-0b2c3d4e5f60';

/** What the server answers (a test may change it before rendering). */
let openVisits: GateVisit[];
let entryAnswers: (() => Response)[];
let fetchMock: ReturnType<typeof mockFetch>;
const calls = (path: string, method = 'POST') =>
  fetchMock.mock.calls.filter(
    ([input, init]) =>
      new URL(String(input), 'http://localhost').pathname === `/api${path}` &&
      (init?.method ?? 'GET') === method,
  );
const bodyOf = (call: unknown[]): unknown => JSON.parse(String((call[1] as RequestInit).body));

beforeEach(() => {
  useSession.setState({
    token: 't',
    user: { id: 'me', name: 'Portera', email: 'p@patio.es', role: 'gestor' },
    status: 'authenticated',
  });
  Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:photo-1'), revokeObjectURL: vi.fn() });
  openVisits = [visit('a', { dropped_trailer_id: 'R-4136-FVR', entered_at: ago(20) })];
  entryAnswers = [];
  fetchMock = mockFetch((path, init) => {
    const method = init.method ?? 'GET';
    if (path === '/gate/visits') return json(200, { visits: openVisits });
    if (path === '/trailers')
      return json(200, { trailers: [RECORD, { ...RECORD, trailer_id: 'R-4136-FVX' }] });
    if (path === '/gate/suggestions') return json(200, SUGGESTIONS);
    if (path === '/gate/photos' && method === 'POST') return json(201, { id: PHOTO_ID });
    if (path === '/gate/entries' && method === 'POST') {
      const next = entryAnswers.shift();
      if (next) return next();
      const sent = JSON.parse(String(init.body)) as GateEntryInput;
      return json(201, {
        visit: visit('new', {
          truck_plate: sent.truck_plate,
          carrier: sent.carrier,
          entered_at: new Date().toISOString(),
          dropped_trailer_id: sent.trailer?.trailer_id ?? null,
        }),
        trailer: RECORD,
      });
    }
    if (path === '/gate/exits' && method === 'POST')
      return json(200, { visit: { ...openVisits[0], exited_at: new Date().toISOString() } });
    if (path === '/server-time') return json(200, { epoch_ms: Date.now() });
    return json(404, { detail: 'no' });
  });
});
afterEach(() => {
  cleanup();
  resetSessionStores('me');
  vi.unstubAllGlobals();
  vi.useRealTimers();
  socketHandlers.clear();
  vi.mocked(toast.error).mockClear();
  vi.mocked(toast.success).mockClear();
});

async function renderGate() {
  const user = userEvent.setup();
  render(<GateView />);
  await screen.findAllByTestId('open-visit');
  return user;
}

/** Fills the form down to the place: a known trailer, the truck, the carrier from the suggestions. */
async function fillEntry(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText(UI_GATE.trailerPlate), 'r4136fvr');
  await screen.findByText(UI_GATE.knownTrailer('R-4136-FVR'), {}, { timeout: 2000 });
  await user.type(screen.getByLabelText(UI_GATE.truckPlate), '1234 bcd');
  // A known carrier, found by its folded name (case and accents aside).
  await user.type(screen.getByLabelText(UI_GATE.carrier), 'garcia');
  await user.click(
    within(screen.getByRole('group', { name: UI_GATE.carrierSuggestions })).getByRole('button', {
      name: 'Transportes García',
    }),
  );
  await user.type(screen.getByLabelText(UI_GATE.driverName), 'Luis Pardo');
}

describe('an entry at the gate', () => {
  it('fills a known trailer’s record, takes a failed item and a photo, and sends that entry', async () => {
    const user = await renderGate();
    await fillEntry(user);

    // The record filled the load: kind, load state, seal, reference, ADR, reefer setpoint.
    expect(screen.getByLabelText<HTMLSelectElement>(UI_GATE.kind).value).toBe('frigorifico');
    expect(screen.getByRole('button', { name: 'Cargado' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: UI_GATE.seal }).value).toBe('S-100');
    expect(screen.getByLabelText<HTMLInputElement>(UI_GATE.reference).value).toBe('PED-77');
    expect(screen.getByLabelText<HTMLInputElement>(UI_GATE.reeferSetpoint).value).toBe('-18');
    expect(screen.getByRole('button', { name: UI_GATE.adr }).getAttribute('aria-pressed')).toBe('true');
    // The gate changes the seal it reads on the doors.
    await user.clear(screen.getByRole('textbox', { name: UI_GATE.seal }));
    await user.type(screen.getByRole('textbox', { name: UI_GATE.seal }), 'S-200');

    // Suggested places for a loaded reefer, the best preselected, each with its free room.
    const places = await screen.findByRole('radiogroup', { name: UI_GATE.placeSection });
    const radios = await within(places).findAllByRole('radio');
    expect(radios.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Campa 1'),
      expect.stringContaining('Campa 2'),
    ]);
    expect(radios[0].textContent).toContain(UI_GATE.placeFree(3));
    expect(radios[0].getAttribute('aria-checked')).toBe('true');
    const asked = new URL(String(calls('/gate/suggestions', 'GET').at(-1)![0]), 'http://localhost');
    expect(Object.fromEntries(asked.searchParams)).toEqual({ load_state: 'cargado', kind: 'frigorifico' });
    await user.click(radios[1]);

    // The checklist: tyres fine, lights not (with what is wrong), the rest unchecked.
    await user.click(
      within(screen.getByTestId('item-neumaticos')).getByRole('button', { name: UI_GATE.itemOk }),
    );
    await user.click(
      within(screen.getByTestId('item-luces')).getByRole('button', { name: UI_GATE.itemNotOk }),
    );
    await user.type(screen.getByLabelText(UI_GATE.itemNote('Luces')), 'Piloto trasero roto');

    // A photo, uploaded at once as multipart field `photo`, shown as a thumbnail.
    const photo = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'foto.jpg', { type: 'image/jpeg' });
    const camera = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(camera.accept).toBe('image/*');
    expect(camera.getAttribute('capture')).toBe('environment');
    await user.upload(camera, photo);
    expect(await screen.findByRole('img', { name: UI_GATE.photo(1) })).toBeTruthy();
    await waitFor(() => expect(screen.queryByText(UI_GATE.photoUploading)).toBeNull());
    const upload = calls('/gate/photos')[0][1] as RequestInit;
    expect(upload.body).toBeInstanceOf(FormData);
    expect((upload.body as FormData).get('photo')).toBeInstanceOf(File);

    await user.click(screen.getByRole('button', { name: UI_GATE.submit }));
    await waitFor(() => expect(calls('/gate/entries')).toHaveLength(1));
    expect(bodyOf(calls('/gate/entries')[0])).toEqual({
      truck_plate: '1234 BCD',
      carrier: 'Transportes García',
      driver_name: 'Luis Pardo',
      appointment_at: null,
      trailer: {
        trailer_id: 'R-4136-FVR',
        kind: 'frigorifico',
        load_state: 'cargado',
        seal: 'S-200',
        reference: 'PED-77',
        adr: true,
        reefer_setpoint_c: -18,
        location_id: SUGGESTIONS[1].location.id,
        inspection: {
          items: [
            { code: 'neumaticos', ok: true, note: null },
            { code: 'luces', ok: false, note: 'Piloto trasero roto' },
          ],
          photo_ids: [PHOTO_ID],
        },
      },
    });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(UI_GATE.entered('1234 BCD')));
    // The truck joins the yard's list, and the form is empty again.
    expect(screen.getAllByTestId('open-visit')).toHaveLength(2);
    expect(screen.getByLabelText<HTMLInputElement>(UI_GATE.trailerPlate).value).toBe('');
  });

  it('offers the known spellings of a partial plate, and a tap takes one', async () => {
    const user = await renderGate();
    await user.type(screen.getByLabelText(UI_GATE.trailerPlate), 'r 4136');
    const offer = await screen.findByRole(
      'button',
      { name: UI_GATE.knownSpelling('R-4136-FVR') },
      { timeout: 2000 },
    );
    expect(screen.getByRole('button', { name: UI_GATE.knownSpelling('R-4136-FVX') })).toBeTruthy();
    const asked = new URL(String(calls('/trailers', 'GET').at(-1)![0]), 'http://localhost');
    expect(asked.searchParams.get('q')).toBe('R 4136');
    await user.click(offer);
    expect(screen.getByLabelText<HTMLInputElement>(UI_GATE.trailerPlate).value).toBe('R-4136-FVR');
    expect(await screen.findByText(UI_GATE.knownTrailer('R-4136-FVR'), {}, { timeout: 2000 })).toBeTruthy();
  });

  it('sends a removed photo no more, and a truck without a trailer without one', async () => {
    const user = await renderGate();
    await user.type(screen.getByLabelText(UI_GATE.truckPlate), '9999XYZ');
    await user.type(screen.getByLabelText(UI_GATE.carrier), 'Nuevo Transporte');
    // Without a trailer plate there is no load, place nor inspection to fill.
    expect(screen.queryByRole('radiogroup', { name: UI_GATE.placeSection })).toBeNull();
    await user.click(screen.getByRole('button', { name: UI_GATE.submit }));
    await waitFor(() => expect(calls('/gate/entries')).toHaveLength(1));
    expect(bodyOf(calls('/gate/entries')[0])).toEqual({
      truck_plate: '9999XYZ',
      carrier: 'Nuevo Transporte',
      driver_name: null,
      appointment_at: null,
    });

    await user.type(screen.getByLabelText(UI_GATE.trailerPlate), 'R-1');
    await user.type(screen.getByLabelText(UI_GATE.truckPlate), '1111AAA');
    await user.type(screen.getByLabelText(UI_GATE.carrier), 'Otro');
    await user.upload(
      document.querySelector<HTMLInputElement>('input[type="file"]')!,
      new File([new Uint8Array([1])], 'f.jpg', { type: 'image/jpeg' }),
    );
    await waitFor(() => expect(screen.queryByText(UI_GATE.photoUploading)).toBeNull());
    await user.click(screen.getByRole('button', { name: UI_GATE.removePhoto(1) }));
    expect(screen.queryByRole('img', { name: UI_GATE.photo(1) })).toBeNull();
    await waitFor(() => expect(screen.getAllByRole('radio')[0].getAttribute('aria-checked')).toBe('true'));
    await user.click(screen.getByRole('button', { name: UI_GATE.submit }));
    await waitFor(() => expect(calls('/gate/entries')).toHaveLength(2));
    const sent = bodyOf(calls('/gate/entries')[1]) as GateEntryInput;
    expect(sent.trailer?.trailer_id).toBe('R-1');
    expect(sent.trailer?.inspection).toBeUndefined();
  });

  it('refuses in the form what the shared schema refuses, before any request', async () => {
    const user = await renderGate();
    await user.type(screen.getByLabelText(UI_GATE.truckPlate), '1234BCD');
    await user.click(screen.getByRole('button', { name: UI_GATE.submit }));
    expect((await screen.findByRole('alert')).textContent).toContain('El transportista es obligatorio');
    expect(calls('/gate/entries')).toHaveLength(0);
  });
});

describe('the refusal `ya está en el patio`', () => {
  it('offers to close the visit that holds the trailer, then registers the entry', async () => {
    entryAnswers = [() => json(409, { detail: GATE_ERR.alreadyInYard('R-4136-FVR', 'Campa 3') })];
    const user = await renderGate();
    await fillEntry(user);
    await screen.findAllByRole('radio');
    await user.click(screen.getByRole('button', { name: UI_GATE.submit }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('El remolque R-4136-FVR ya está en el patio (Campa 3)');
    await user.click(within(alert).getByRole('button', { name: UI_GATE.exitThereAndEnter }));

    await waitFor(() => expect(calls('/gate/entries')).toHaveLength(2));
    // The open visit that dropped it leaves with it; then the same entry again.
    expect(calls('/gate/exits').map(bodyOf)).toEqual([
      { visit_id: 'a', trailer: { trailer_id: 'R-4136-FVR' } },
    ]);
    expect(bodyOf(calls('/gate/entries')[1])).toEqual(bodyOf(calls('/gate/entries')[0]));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(UI_GATE.entered('1234 BCD')));
    // Truck A is gone from the list, the new one is in.
    expect(screen.getAllByTestId('open-visit').map((row) => row.textContent)).toEqual([
      expect.stringContaining('1234 BCD'),
    ]);
  });

  it('tells the gate when no open visit holds the trailer, and closes nothing', async () => {
    openVisits = [visit('b')];
    entryAnswers = [() => json(409, { detail: GATE_ERR.alreadyInYard('R-4136-FVR', 'Muelle 2') })];
    const user = await renderGate();
    await fillEntry(user);
    await screen.findAllByRole('radio');
    await user.click(screen.getByRole('button', { name: UI_GATE.submit }));
    await user.click(await screen.findByRole('button', { name: UI_GATE.exitThereAndEnter }));
    expect((await screen.findByRole('alert')).textContent).toBe(UI_GATE.noVisitHolds('R-4136-FVR'));
    expect(screen.queryByRole('button', { name: UI_GATE.exitThereAndEnter })).toBeNull();
    expect(calls('/gate/exits')).toHaveLength(0);
    expect(calls('/gate/entries')).toHaveLength(1);
  });

  it('shows any other refusal as it comes, without the offer', async () => {
    entryAnswers = [() => json(409, { detail: GATE_ERR.locationFull('Campa 2') })];
    const user = await renderGate();
    await fillEntry(user);
    await screen.findAllByRole('radio');
    await user.click(screen.getByRole('button', { name: UI_GATE.submit }));
    expect((await screen.findByRole('alert')).textContent).toBe('La ubicación Campa 2 está completa');
    expect(screen.queryByRole('button', { name: UI_GATE.exitThereAndEnter })).toBeNull();
  });
});

describe('the trucks in the yard now', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(NOW);
    openVisits = [
      visit('a', { truck_plate: 'AAA', entered_at: ago(50) }),
      visit('b', { truck_plate: 'BBB', entered_at: ago(90) }),
      visit('c', { truck_plate: 'CCC', entered_at: ago(150) }),
      // Three hours in, but the appointment was 30 minutes ago: the wait counts from it.
      visit('d', { truck_plate: 'DDD', entered_at: ago(180), appointment_at: ago(30) }),
    ];
  });

  const rows = () =>
    screen.getAllByTestId('open-visit').map((row) => ({
      plate: row.querySelector('.font-mono')?.textContent,
      tone: row.getAttribute('data-tone'),
      wait: within(row).getByTestId('wait').textContent,
    }));

  it('shows each stay and wait, amber past 1 h of wait and red past 2 h, and ticks', async () => {
    await renderGate();
    expect(rows()).toEqual([
      { plate: 'DDD', tone: 'none', wait: '30 min' },
      { plate: 'CCC', tone: 'red', wait: '2 h 30 min' },
      { plate: 'BBB', tone: 'amber', wait: '1 h 30 min' },
      { plate: 'AAA', tone: 'none', wait: '50 min' },
    ]);
    const ddd = screen.getAllByTestId('open-visit')[0];
    expect(ddd.textContent).toContain('3 h 00 min');
    expect(ddd.textContent).toContain(UI_GATE.enteredAt('08:00'));
    expect(ddd.textContent).toContain(UI_GATE.appointmentAt('10:30'));

    // Eleven minutes later: A passed the hour, B passed two; the stays moved on.
    act(() => vi.advanceTimersByTime(11 * MIN));
    expect(rows().map((r) => [r.plate, r.tone, r.wait])).toEqual([
      ['DDD', 'none', '41 min'],
      ['CCC', 'red', '2 h 41 min'],
      ['BBB', 'amber', '1 h 41 min'],
      ['AAA', 'amber', '1 h 01 min'],
    ]);
    // Twenty more: D's wait passed the hour from its appointment, B passed two.
    act(() => vi.advanceTimersByTime(20 * MIN));
    expect(rows().map((r) => r.tone)).toEqual(['amber', 'red', 'red', 'amber']);
  });

  it('follows gate:changed: a visit that opens joins, one that closes leaves', async () => {
    await renderGate();
    act(() =>
      socketHandlers.get('gate:changed')!({ visit: visit('e', { truck_plate: 'EEE', entered_at: ago(1) }) }),
    );
    expect(rows().map((r) => r.plate)).toEqual(['DDD', 'CCC', 'BBB', 'AAA', 'EEE']);
    act(() =>
      socketHandlers.get('gate:changed')!({
        visit: { ...openVisits[1], exited_at: new Date().toISOString() },
      }),
    );
    expect(rows().map((r) => r.plate)).toEqual(['DDD', 'CCC', 'AAA', 'EEE']);
  });

  it('lets a truck out with the trailer it takes and warns of a seal that differs', async () => {
    vi.useRealTimers();
    openVisits = [visit('a', { truck_plate: 'AAA' })];
    fetchMock.mockImplementation((input, init = {}) => {
      const path = new URL(String(input), 'http://localhost').pathname.replace(/^\/api/, '');
      if (path === '/gate/exits')
        return Promise.resolve(
          json(200, {
            visit: {
              ...openVisits[0],
              exited_at: new Date().toISOString(),
              picked_trailer_id: 'R-77',
              exit_seal: 'S-9',
              seal_mismatch: true,
            },
          }),
        );
      if (path === '/gate/visits') return Promise.resolve(json(200, { visits: openVisits }));
      return Promise.resolve(json(404, { detail: `no ${init.method ?? ''}` }));
    });
    const user = await renderGate();
    await user.click(screen.getByRole('button', { name: UI_GATE.exit }));
    const form = screen.getByRole('form', { name: UI_GATE.exitTitle('AAA') });
    await user.type(within(form).getByLabelText(UI_GATE.pickedTrailer), 'r-77');
    await user.type(within(form).getByLabelText(UI_GATE.exitSeal), 'S-9');
    await user.click(within(form).getByRole('button', { name: UI_GATE.confirmExit }));

    await waitFor(() => expect(calls('/gate/exits')).toHaveLength(1));
    expect(bodyOf(calls('/gate/exits')[0])).toEqual({
      visit_id: 'a',
      trailer: { trailer_id: 'R-77', seal: 'S-9' },
    });
    expect((await screen.findByRole('alert')).textContent).toContain(UI_GATE.sealMismatch('AAA', 'S-9'));
    expect(screen.queryAllByTestId('open-visit')).toHaveLength(0);
    expect(toast.success).toHaveBeenCalledWith(UI_GATE.exited('AAA'));
    await user.click(screen.getByRole('button', { name: UI_GATE.dismiss }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

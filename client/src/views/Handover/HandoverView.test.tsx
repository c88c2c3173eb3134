// Relevo de turno (CONTRACT §20): the current shift's figures and lists as the server answers them, the
// previous shift's notes, a note added (POST, then the page read again), another shift chosen, and /relevo
// opening the staff shell on it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type { HandoverNote, HandoverReport, Task } from '@shared/schemas';
import { HANDOVER_UI, VIEW_LABELS } from '@shared/labels';
import { App } from '../../App';
import { json, mockFetch, sentBody } from '../../test/http';
import { resetSessionStores } from '../../stores/session-end';
import { useSession } from '../../stores/session';
import { HANDOVER_PATH } from './path';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() } }));

const note = (over: Partial<HandoverNote>): HandoverNote => ({
  id: crypto.randomUUID(),
  text: 'Nota',
  author_id: 'otro',
  author_name: 'Gestor Pedro',
  created_at: '2026-11-24T12:00:00.000Z',
  shift: 'manana',
  date: '2026-11-24',
  ...over,
});
const task = {
  id: 't1',
  trailer_id: 'R-HELD',
  title: 'Mover',
  origin: 'Muelle 1',
  destination: 'Campa 2',
  status: 'bolsa_trabajo',
  on_hold: true,
  hold_reason: 'Falta documentación',
  due_at: null,
  assigned_to_name: null,
} as unknown as Task;

const report = (over: Partial<HandoverReport> = {}): HandoverReport => ({
  shift: 'tarde',
  date: '2026-11-24',
  from: '2026-11-24T13:00:00.000Z',
  to: '2026-11-24T21:00:00.000Z',
  moves_done: 7,
  late: [],
  returned: [],
  holds: [task],
  open_tasks: [task],
  trucks_in_yard: [],
  missing_punches: [],
  notes: [note({ text: 'Muelle 4 averiado' })],
  shift_notes: [],
  ...over,
});

afterEach(() => {
  cleanup();
  resetSessionStores('me');
  vi.unstubAllGlobals();
});

describe('Relevo de turno', () => {
  it('shows the shift, its figures, the previous notes; adds a note; picks another shift', async () => {
    useSession.setState({
      token: 't',
      user: { id: 'me', name: 'Gestora Ana', email: 'a@patio.es', role: 'gestor' },
      status: 'authenticated',
    });
    const added: HandoverNote[] = [];
    const fetch = mockFetch((path, init) => {
      if (path === '/handover/notes' && init.method === 'POST') {
        const n = note({
          text: 'Cambio de báscula',
          author_id: 'me',
          author_name: 'Gestora Ana',
          shift: 'tarde',
          created_at: new Date().toISOString(),
        });
        added.push(n);
        return json(201, n);
      }
      if (path === '/handover') return json(200, report({ shift_notes: [...added] }));
      return json(200, []);
    });
    render(
      <MemoryRouter initialEntries={[HANDOVER_PATH]}>
        <App />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { name: HANDOVER_UI.title }, { timeout: 5000 })).toBeTruthy();
    const nav = screen.getByRole('navigation');
    expect(within(nav).getByRole('button', { name: VIEW_LABELS.handover }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(await screen.findByText('Muelle 4 averiado')).toBeTruthy();
    const previous = screen.getByRole('heading', { name: HANDOVER_UI.previousNotes }).closest('section')!;
    expect(within(previous).getByText('Muelle 4 averiado')).toBeTruthy();
    const figure = screen.getByText(HANDOVER_UI.figures.moves_done).parentElement!;
    expect(figure.textContent).toContain('7');
    expect(screen.getByText('Falta documentación')).toBeTruthy();
    expect((screen.getByLabelText(HANDOVER_UI.shift) as HTMLSelectElement).value).toBe('tarde');
    expect((screen.getByLabelText(HANDOVER_UI.date) as HTMLInputElement).value).toBe('2026-11-24');

    await userEvent.type(screen.getByRole('textbox', { name: HANDOVER_UI.addNote }), 'Cambio de báscula');
    await userEvent.click(screen.getByRole('button', { name: HANDOVER_UI.addNote }));
    const current = screen.getByRole('heading', { name: HANDOVER_UI.currentNotes }).closest('section')!;
    expect(await within(current).findByText('Cambio de báscula')).toBeTruthy();
    const post = fetch.mock.calls.findIndex(([, init]) => init?.method === 'POST');
    expect(sentBody(fetch, post)).toEqual({ text: 'Cambio de báscula' });
    // The author may delete it (within the hour): the button names the note.
    expect(within(current).getByRole('button', { name: /Borrar nota: Cambio de báscula/ })).toBeTruthy();

    await userEvent.selectOptions(screen.getByLabelText(HANDOVER_UI.shift), 'noche');
    await waitFor(() =>
      expect(
        fetch.mock.calls.some(
          ([url]) => String(url).includes('shift=noche') && String(url).includes('date=2026-11-24'),
        ),
      ).toBe(true),
    );
  });
});

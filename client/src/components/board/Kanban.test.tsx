// The kanban in jsdom: columns per role, every card field and the delay colouring, keyboard drags through
// the driver picker, the rollback toast, delete confirmation, and the driver mode's rules.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import type { Role } from '@shared/enums';
import type { EligibleDriver, Task } from '@shared/schemas';
import {
  CARD_ACTION_NAME,
  COLUMN_EMPTY,
  ERR,
  STATUS_LABELS,
  TOAST,
  UI_BOARD,
  UI_COMMON,
  UI_DRIVER,
} from '@shared/labels';
import { json, mockFetch, sentBody } from '../../test/http';
import { makeTask } from '../../test/tasks';
import { useSession } from '../../stores/session';
import { useOutbox } from '../../stores/outbox';
import { useTasks } from '../../stores/tasks';
import { Kanban } from './Kanban';

/** No pause between keystrokes: this machine is slow enough. */
const user = () => userEvent.setup({ delay: null });

vi.mock('sonner', () => ({
  toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn(), info: vi.fn() }),
}));

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

function signIn(role: Role, id = 'me') {
  useSession.setState({
    token: 'tok',
    user: { id, name: 'Yo Mismo', email: 'yo@patio.es', role },
    status: 'authenticated',
  });
  localStorage.setItem('torre.token', 'tok');
}

function seed(...tasks: Task[]) {
  for (const t of tasks) useTasks.getState().apply(t);
}

const column = (status: string) =>
  screen.getByRole('region', { name: STATUS_LABELS[status as keyof typeof STATUS_LABELS] });
const cardOf = (t: Task) => screen.getByRole('article', { name: `${t.title} ${t.trailer_id}` });
const handleOf = (t: Task) => cardOf(t).parentElement!;
/** A staff button of a card, named with its task (`Editar tarea R-4136-FVR`). */
const named = (action: string, t: Task) => CARD_ACTION_NAME(action, t.trailer_id);

/**
 * jsdom lays nothing out, and @hello-pangea/dnd moves a card between columns by their boxes: columns
 * side by side, 300 px apart; cards stacked in them.
 */
const COLUMN_ORDER = ['bolsa_trabajo', 'en_proceso', 'finalizada'];
function layOut() {
  const box = (x: number, y: number, width: number, height: number) =>
    ({
      x,
      y,
      width,
      height,
      top: y,
      left: x,
      right: x + width,
      bottom: y + height,
      toJSON: () => ({}),
    }) as DOMRect;
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    const columnId = this.closest('[data-rfd-droppable-id]')?.getAttribute('data-rfd-droppable-id') ?? '';
    const x = COLUMN_ORDER.indexOf(columnId) * 300;
    if (this.hasAttribute('data-rfd-droppable-id')) return box(x, 0, 280, 1000);
    if (this.hasAttribute('data-rfd-draggable-id')) {
      const index = [...this.parentElement!.children].indexOf(this);
      return box(x + 10, index * 120, 260, 110);
    }
    return box(0, 0, 0, 0);
  });
  // The viewport: a column must be visible to be a keyboard target.
  vi.spyOn(document.documentElement, 'clientWidth', 'get').mockReturnValue(1200);
  vi.spyOn(document.documentElement, 'clientHeight', 'get').mockReturnValue(1000);
}

/** A driver free to take a task. */
const LUCIA: EligibleDriver = {
  id: 'd1',
  name: 'Lucía Romero',
  is_online: true,
  clocked_in: true,
  busy: false,
  available: true,
  movements_count: 4,
};

const KEY = { Space: 32, ArrowLeft: 37, ArrowRight: 39 } as const;
/** @hello-pangea/dnd's keyboard drag: lift with Space, move with the arrows, drop with Space. */
function keyboardDrag(t: Task, arrows: ('ArrowLeft' | 'ArrowRight')[]) {
  const handle = handleOf(t);
  handle.focus();
  fireEvent.keyDown(handle, { keyCode: KEY.Space });
  for (const a of arrows) fireEvent.keyDown(handle, { keyCode: KEY[a] });
  fireEvent.keyDown(handle, { keyCode: KEY.Space });
}

beforeEach(() => {
  layOut();
  useTasks.getState().reset();
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('staff board', { timeout: 20_000 }, () => {
  it('shows the three columns with counts and empty texts, and every field of a card', () => {
    signIn('admin');
    const t = makeTask({
      description: 'Con lona azul',
      priority: 'high',
      created_by_name: 'Gema Gestora',
      return_reason: 'Remolque dañado',
    });
    seed(t);
    render(<Kanban mode="staff" />);
    expect(within(column('bolsa_trabajo')).getByTestId('column-count')).toHaveTextContent('1');
    expect(within(column('en_proceso')).getByText(COLUMN_EMPTY.en_proceso)).toBeInTheDocument();
    expect(within(column('finalizada')).getByText(COLUMN_EMPTY.finalizada)).toBeInTheDocument();
    const card = cardOf(t);
    for (const text of [
      'Mover',
      t.trailer_id,
      'Muelle 3',
      'Campa Norte',
      'Con lona azul',
      'Alta',
      'SEMIREMOLQUE',
      'Gema Gestora',
      UI_BOARD.card.unassigned,
    ])
      expect(within(card).getByText(text)).toBeInTheDocument();
    expect(card).toHaveTextContent(`${UI_BOARD.card.returnReason}: Remolque dañado`);
    for (const action of [UI_BOARD.card.edit, UI_BOARD.picker.confirm, UI_BOARD.card.delete])
      expect(within(card).getByRole('button', { name: named(action, t) })).toBeInTheDocument();
  });

  it('mounts a long column a page at a time; the count is the whole column', async () => {
    signIn('admin');
    seed(...Array.from({ length: 35 }, () => makeTask()));
    const observers: { fire: (hit: boolean) => void }[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(private cb: (e: { isIntersecting: boolean }[]) => void) {
          observers.push(this);
        }
        fire(hit: boolean) {
          this.cb([{ isIntersecting: hit }]);
        }
        observe() {}
        disconnect() {}
      },
    );
    render(<Kanban mode="staff" />);
    const pool = column('bolsa_trabajo');
    expect(within(pool).getByTestId('column-count')).toHaveTextContent('35');
    expect(within(pool).getAllByRole('article')).toHaveLength(20);
    // The end of the shown cards scrolls into reach: the rest follows.
    act(() => observers.at(-1)!.fire(true));
    expect(within(pool).getAllByRole('article')).toHaveLength(35);
  });

  it('gestor: no Finalizada column', () => {
    signIn('gestor');
    render(<Kanban mode="staff" />);
    expect(screen.getByRole('region', { name: STATUS_LABELS.bolsa_trabajo })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: STATUS_LABELS.finalizada })).toBeNull();
  });

  it('colours the time in state: none while fresh, amber past §20 espera (20 min), red past 40', () => {
    signIn('admin');
    const fresh = makeTask({ status_since: minutesAgo(5) });
    const late = makeTask({ status_since: minutesAgo(25) });
    const stuck = makeTask({
      status: 'en_proceso',
      assigned_to: 'd1',
      assigned_to_name: 'Lucía',
      status_since: minutesAgo(45),
    });
    seed(fresh, late, stuck);
    render(<Kanban mode="staff" />);
    const tone = (t: Task) => within(cardOf(t)).getByTestId('time-in-state');
    expect(tone(fresh)).toHaveAttribute('data-tone', 'slate');
    expect(tone(fresh)).toHaveTextContent('5 min');
    expect(tone(late)).toHaveAttribute('data-tone', 'amber');
    expect(tone(stuck)).toHaveAttribute('data-tone', 'red');
    expect(tone(stuck)).toHaveTextContent('45 min');
    expect(within(cardOf(stuck)).getByText('Lucía')).toBeInTheDocument();
  });

  it('each card is one Tab stop: Intro reaches its buttons named with the task, arrows move between cards and columns', async () => {
    signIn('admin');
    const a = makeTask({ created_at: minutesAgo(9) });
    const b = makeTask({ created_at: minutesAgo(8) });
    const busy = makeTask({ status: 'en_proceso', assigned_to: 'd1', assigned_to_name: 'Lucía' });
    seed(a, b, busy);
    render(<Kanban mode="staff" />);
    const handles = within(column('bolsa_trabajo'))
      .getAllByRole('article')
      .map((el) => el.parentElement!);
    expect(handles.map((h) => h.querySelector('article')!.dataset.taskId)).toEqual([a.id, b.id]);
    // No button of a card is a Tab stop: Tab goes from card to card.
    for (const button of within(cardOf(a)).getAllByRole('button'))
      expect(button).toHaveAttribute('tabindex', '-1');
    handles[0].focus();
    await user().tab();
    expect(handleOf(b)).toHaveFocus();
    await user().tab({ shift: true });
    expect(handleOf(a)).toHaveFocus();
    // Intro: the first button, named with the task; ←/→ among them; Esc back to the card.
    await user().keyboard('{Enter}');
    expect(document.activeElement).toBe(
      within(cardOf(a)).getByRole('button', { name: `Editar tarea ${a.trailer_id}` }),
    );
    await user().keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(
      within(cardOf(a)).getByRole('button', { name: named(UI_BOARD.picker.confirm, a) }),
    );
    await user().keyboard('{ArrowLeft}{ArrowLeft}');
    expect(document.activeElement).toBe(
      within(cardOf(a)).getByRole('button', { name: `Eliminar tarea ${a.trailer_id}` }),
    );
    // From a button Tab leaves the card for the next one.
    await user().tab();
    expect(handleOf(b)).toHaveFocus();
    await user().keyboard('{ArrowUp}');
    expect(handleOf(a)).toHaveFocus();
    await user().keyboard('{ArrowDown}');
    expect(handleOf(b)).toHaveFocus();
    await user().keyboard('{Enter}{Escape}');
    expect(handleOf(b)).toHaveFocus();
    // ←/→: the first card of the neighbouring column (an empty one is skipped).
    await user().keyboard('{ArrowRight}');
    expect(handleOf(busy)).toHaveFocus();
    await user().keyboard('{ArrowRight}');
    expect(handleOf(busy)).toHaveFocus();
    await user().keyboard('{ArrowLeft}');
    expect(handleOf(a)).toHaveFocus();
  });

  it("shows each deadline on its card (CONTRACT §20) and a finished task's lateness", () => {
    signIn('admin');
    const soon = makeTask({ due_at: new Date(Date.now() + 25 * 60_000 + 30_000).toISOString() });
    const late = makeTask({ due_at: minutesAgo(12.5) });
    const none = makeTask();
    const done = makeTask({
      status: 'finalizada',
      completed_at: minutesAgo(1),
      due_at: minutesAgo(20),
      late_s: 19 * 60,
    });
    const onTime = makeTask({
      status: 'finalizada',
      completed_at: minutesAgo(1),
      due_at: minutesAgo(-5),
      late_s: 0,
    });
    seed(soon, late, none, done, onTime);
    render(<Kanban mode="staff" />);
    const chip = (t: Task) => within(cardOf(t)).getByTestId('deadline');
    expect(chip(soon)).toHaveTextContent('Faltan 25 min');
    expect(chip(soon)).toHaveAttribute('data-tone', 'amber');
    expect(chip(late)).toHaveTextContent('Retrasada 12 min');
    expect(chip(late)).toHaveAttribute('data-tone', 'red');
    expect(within(cardOf(none)).queryByTestId('deadline')).toBeNull();
    expect(chip(done)).toHaveTextContent('Retrasada 19 min');
    expect(chip(onTime)).toHaveTextContent('A tiempo');
  });

  it('a pool card dragged by keyboard to En Proceso asks for the driver; busy ones cannot be chosen', async () => {
    signIn('admin');
    const t = makeTask();
    seed(t);
    const drivers: EligibleDriver[] = [
      LUCIA,
      {
        id: 'd2',
        name: 'Pablo Serrano',
        is_online: true,
        clocked_in: true,
        busy: true,
        available: false,
        movements_count: 9,
      },
    ];
    const fetch = mockFetch((path, init) => {
      if (path === `/tasks/${t.id}/eligible-drivers`) return json(200, drivers);
      if (path === `/tasks/${t.id}` && init.method === 'PUT')
        return json(200, {
          ...t,
          status: 'en_proceso',
          assigned_to: 'd1',
          assigned_to_name: 'Lucía Romero',
          version: 2,
        });
      return json(404, {});
    });
    render(<Kanban mode="staff" />);
    keyboardDrag(t, ['ArrowRight']);

    const picker = await screen.findByRole('dialog', { name: UI_BOARD.picker.title });
    await within(picker).findByText('Lucía Romero');
    expect(within(picker).getByRole('radio', { name: /Pablo Serrano/ })).toBeDisabled();
    expect(within(picker).getByRole('radio', { name: /Lucía Romero/ })).toBeChecked();
    await user().click(within(picker).getByRole('button', { name: UI_BOARD.picker.confirm }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(TOAST.taskUpdated));
    const put = fetch.mock.calls.findIndex(([, init]) => init?.method === 'PUT');
    // The card's version rides along (CONTRACT §14): a card changed meanwhile is refused, not overwritten.
    expect(sentBody(fetch, put)).toEqual({ status: 'en_proceso', assigned_to: 'd1', version: 1 });
    expect(within(column('en_proceso')).getByText('Lucía Romero')).toBeInTheDocument();
  });

  it('a refused drag goes back to its column with the server detail as the toast', async () => {
    signIn('manager');
    const t = makeTask({ status: 'en_proceso', assigned_to: 'd1', assigned_to_name: 'Lucía' });
    seed(t);
    mockFetch(() => json(409, { detail: 'La tarea cambió mientras tanto' }));
    render(<Kanban mode="staff" />);
    keyboardDrag(t, ['ArrowRight']);
    const dialog = await screen.findByRole('dialog', { name: UI_BOARD.finishConfirm.title('Lucía') });
    await user().click(within(dialog).getByRole('button', { name: UI_BOARD.finishConfirm.confirm }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('La tarea cambió mientras tanto'));
    // The dialog stays for a retry; closed, the card is where it was.
    await user().click(within(dialog).getByRole('button', { name: UI_COMMON.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(column('en_proceso')).getByRole('article')).toBe(cardOf(t));
    expect(useTasks.getState().byId[t.id]).toBe(t);
  });

  it("a driver's En Proceso card dropped on Finalizada asks first: Cancelar sends nothing, confirming PUTs", async () => {
    signIn('admin');
    const t = makeTask({ status: 'en_proceso', assigned_to: 'd1', assigned_to_name: 'Jesús Jiménez' });
    seed(t);
    const fetch = mockFetch(() =>
      json(200, { ...t, status: 'finalizada', completed_at: new Date().toISOString(), version: 2 }),
    );
    render(<Kanban mode="staff" />);
    keyboardDrag(t, ['ArrowRight']);
    let dialog = await screen.findByRole('dialog', {
      name: UI_BOARD.finishConfirm.title('Jesús Jiménez'),
    });
    expect(within(dialog).getByRole('button', { name: UI_COMMON.cancel })).toBeInTheDocument();
    await user().click(within(dialog).getByRole('button', { name: UI_COMMON.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fetch).not.toHaveBeenCalled();
    expect(within(column('en_proceso')).getByRole('article')).toBe(cardOf(t));
    expect(useTasks.getState().byId[t.id].status).toBe('en_proceso');

    keyboardDrag(t, ['ArrowRight']);
    dialog = await screen.findByRole('dialog', { name: UI_BOARD.finishConfirm.title('Jesús Jiménez') });
    await user().click(within(dialog).getByRole('button', { name: UI_BOARD.finishConfirm.confirm }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(TOAST.taskUpdated));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0][1]?.method).toBe('PUT');
    expect(sentBody(fetch)).toEqual({ status: 'finalizada', version: 1 });
    expect(within(column('finalizada')).getByRole('article')).toBe(cardOf(t));
  });

  it('a pool card dropped on Finalizada needs no confirmation', async () => {
    signIn('admin');
    const t = makeTask();
    seed(t);
    const fetch = mockFetch(() => json(200, { ...t, status: 'finalizada', version: 2 }));
    render(<Kanban mode="staff" />);
    keyboardDrag(t, ['ArrowRight', 'ArrowRight']);
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sentBody(fetch)).toEqual({ status: 'finalizada', version: 1 });
  });

  it("'Retener' asks an optional reason and PUTs the hold; the held card says so and offers 'Liberar'", async () => {
    signIn('manager');
    const t = makeTask();
    seed(t);
    const fetch = mockFetch((_path, init) => {
      const body = JSON.parse(String(init.body)) as { on_hold: boolean; hold_reason?: string | null };
      return json(200, {
        ...t,
        on_hold: body.on_hold,
        hold_reason: body.on_hold ? (body.hold_reason ?? null) : null,
        version: fetch.mock.calls.length + 1,
      });
    });
    render(<Kanban mode="staff" />);
    expect(within(cardOf(t)).queryByRole('button', { name: named(UI_BOARD.card.release, t) })).toBeNull();
    await user().click(within(cardOf(t)).getByRole('button', { name: named(UI_BOARD.card.hold, t) }));
    const dialog = screen.getByRole('dialog', { name: UI_BOARD.holdConfirm.title });
    expect(fetch).not.toHaveBeenCalled();
    await user().type(within(dialog).getByLabelText(UI_BOARD.holdConfirm.reason), '  Remolque dañado ');
    await user().click(within(dialog).getByRole('button', { name: UI_BOARD.holdConfirm.confirm }));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(fetch.mock.calls[0][1]?.method).toBe('PUT');
    expect(new URL(String(fetch.mock.calls[0][0]), 'http://x').pathname).toBe(`/api/tasks/${t.id}`);
    expect(sentBody(fetch)).toEqual({ on_hold: true, hold_reason: 'Remolque dañado' });
    await waitFor(() =>
      expect(within(cardOf(t)).getByTestId('held-note')).toHaveTextContent('Retenida: Remolque dañado'),
    );
    expect(within(cardOf(t)).queryByRole('button', { name: named(UI_BOARD.card.hold, t) })).toBeNull();

    await user().click(within(cardOf(t)).getByRole('button', { name: named(UI_BOARD.card.release, t) }));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    expect(sentBody(fetch, 1)).toEqual({ on_hold: false });
    await waitFor(() => expect(within(cardOf(t)).queryByTestId('held-note')).toBeNull());
  });

  describe('a held pool task says its hold before staff move it', () => {
    /** The server: the eligible drivers, and any PUT answered as the task assigned to Lucía (or released). */
    const serve = (t: Task) =>
      mockFetch((path, init) => {
        if (path === `/tasks/${t.id}/eligible-drivers`) return json(200, [LUCIA]);
        if (path === `/tasks/${t.id}` && init.method === 'PUT') {
          const body = JSON.parse(String(init.body)) as { status?: string };
          return json(200, {
            ...t,
            ...(body.status
              ? { status: 'en_proceso', assigned_to: 'd1', assigned_to_name: 'Lucía Romero' }
              : {}),
            on_hold: false,
            hold_reason: null,
            hold_source: null,
            version: 2,
          });
        }
        return json(404, {});
      });
    const puts = (fetch: ReturnType<typeof mockFetch>) =>
      fetch.mock.calls.filter(([, init]) => init?.method === 'PUT');
    /** Drags the card (keyboard) and answers the confirm that opens: the dialog, once its text is checked. */
    const dragAsked = async (t: Task, arrows: 'ArrowRight'[], title: string, text: string) => {
      keyboardDrag(t, arrows);
      const dialog = await screen.findByRole('dialog', { name: title });
      expect(dialog).toHaveTextContent(text);
      return dialog;
    };
    /** Cancelar: the dialog goes, nothing is sent. */
    const cancel = async (dialog: HTMLElement, fetch: ReturnType<typeof mockFetch>) => {
      await user().click(within(dialog).getByRole('button', { name: UI_COMMON.cancel }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(fetch).not.toHaveBeenCalled();
    };
    /** The picker the accepted confirm opened: Lucía is chosen and the assignment PUT. */
    const pickLucia = async (fetch: ReturnType<typeof mockFetch>) => {
      const picker = await screen.findByRole('dialog', { name: UI_BOARD.picker.title });
      await within(picker).findByText('Lucía Romero');
      await user().click(within(picker).getByRole('button', { name: UI_BOARD.picker.confirm }));
      await waitFor(() => expect(puts(fetch)).toHaveLength(1));
      expect(JSON.parse(String(puts(fetch)[0][1]!.body))).toEqual({
        status: 'en_proceso',
        assigned_to: 'd1',
        version: 1,
      });
    };

    it('damage hold, dragged onto En Proceso: Cancelar sends nothing; accepting opens the picker', async () => {
      signIn('gestor');
      const t = makeTask({
        on_hold: true,
        hold_reason: 'Remolque con daños: Lona rota',
        hold_source: 'damage',
      });
      seed(t);
      const fetch = serve(t);
      render(<Kanban mode="staff" />);
      const question = 'El remolque tiene daños. ¿Moverlo igualmente?';
      await cancel(await dragAsked(t, ['ArrowRight'], UI_BOARD.heldConfirm.damageTitle, question), fetch);
      expect(within(column('bolsa_trabajo')).getByRole('article')).toBe(cardOf(t));

      const dialog = await dragAsked(t, ['ArrowRight'], UI_BOARD.heldConfirm.damageTitle, question);
      await user().click(within(dialog).getByRole('button', { name: UI_BOARD.heldConfirm.move }));
      await pickLucia(fetch);
      expect(screen.queryByRole('dialog', { name: UI_BOARD.heldConfirm.damageTitle })).toBeNull();
      await waitFor(() => expect(within(column('en_proceso')).getByText('Lucía Romero')).toBeInTheDocument());
    });

    it("damage hold, 'Liberar': Cancelar sends nothing; accepting PUTs the release", async () => {
      signIn('manager');
      const t = makeTask({ on_hold: true, hold_reason: 'Remolque con daños: Eje', hold_source: 'damage' });
      seed(t);
      const fetch = serve(t);
      render(<Kanban mode="staff" />);
      await user().click(within(cardOf(t)).getByRole('button', { name: named(UI_BOARD.card.release, t) }));
      let dialog = screen.getByRole('dialog', { name: UI_BOARD.heldConfirm.damageTitle });
      expect(dialog).toHaveTextContent(UI_BOARD.heldConfirm.damage);
      await cancel(dialog, fetch);
      expect(within(cardOf(t)).getByTestId('held-note')).toBeInTheDocument();

      await user().click(within(cardOf(t)).getByRole('button', { name: named(UI_BOARD.card.release, t) }));
      dialog = screen.getByRole('dialog', { name: UI_BOARD.heldConfirm.damageTitle });
      await user().click(within(dialog).getByRole('button', { name: UI_BOARD.heldConfirm.release }));
      await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
      expect(sentBody(fetch)).toEqual({ on_hold: false });
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      await waitFor(() => expect(within(cardOf(t)).queryByTestId('held-note')).toBeNull());
    });

    it('damage hold, dropped on Finalizada: asked too; a staff hold is released without a question', async () => {
      signIn('admin');
      const t = makeTask({ on_hold: true, hold_reason: 'Remolque con daños: Eje', hold_source: 'damage' });
      const staff = makeTask({ on_hold: true, hold_reason: 'Espera', hold_source: 'staff' });
      seed(t, staff);
      const fetch = mockFetch((_path, init) =>
        json(200, { ...t, ...JSON.parse(String(init.body)), version: 2 }),
      );
      render(<Kanban mode="staff" />);
      const [title, question] = [UI_BOARD.heldConfirm.damageTitle, UI_BOARD.heldConfirm.damage];
      await cancel(await dragAsked(t, ['ArrowRight', 'ArrowRight'], title, question), fetch);
      const dialog = await dragAsked(t, ['ArrowRight', 'ArrowRight'], title, question);
      await user().click(within(dialog).getByRole('button', { name: UI_BOARD.heldConfirm.move }));
      await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
      expect(sentBody(fetch)).toEqual({ status: 'finalizada', version: 1 });

      await user().click(
        within(cardOf(staff)).getByRole('button', { name: named(UI_BOARD.card.release, staff) }),
      );
      await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(sentBody(fetch, 1)).toEqual({ on_hold: false });
    });

    it('staff hold, dragged onto En Proceso: the confirm names the reason; Cancelar sends nothing', async () => {
      signIn('gestor');
      const t = makeTask({ on_hold: true, hold_reason: 'Remolque dañado', hold_source: 'staff' });
      seed(t);
      const fetch = serve(t);
      render(<Kanban mode="staff" />);
      const question = 'La tarea está retenida: Remolque dañado. ¿Asignarla igualmente?';
      await cancel(await dragAsked(t, ['ArrowRight'], UI_BOARD.heldConfirm.title, question), fetch);

      // The card's 'Asignar' asks the same.
      await user().click(within(cardOf(t)).getByRole('button', { name: named(UI_BOARD.picker.confirm, t) }));
      const dialog = screen.getByRole('dialog', { name: UI_BOARD.heldConfirm.title });
      expect(dialog).toHaveTextContent(question);
      await user().click(within(dialog).getByRole('button', { name: UI_BOARD.heldConfirm.assign }));
      await pickLucia(fetch);
    });
  });

  it('a refused hold (no longer in the pool) toasts the server detail and leaves the card as it was', async () => {
    signIn('gestor');
    const t = makeTask();
    seed(t);
    mockFetch(() => json(409, { detail: ERR.holdOnlyPool }));
    render(<Kanban mode="staff" />);
    await user().click(within(cardOf(t)).getByRole('button', { name: named(UI_BOARD.card.hold, t) }));
    const dialog = screen.getByRole('dialog', { name: UI_BOARD.holdConfirm.title });
    await user().click(within(dialog).getByRole('button', { name: UI_BOARD.holdConfirm.confirm }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(ERR.holdOnlyPool));
    await user().click(within(dialog).getByRole('button', { name: UI_COMMON.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(cardOf(t)).queryByTestId('held-note')).toBeNull();
    expect(useTasks.getState().byId[t.id]).toBe(t);
  });

  it('an En Proceso card whose driver is offline says since when, in the one duration format', () => {
    signIn('admin');
    const t = makeTask({
      status: 'en_proceso',
      assigned_to: 'd1',
      assigned_to_name: 'Lucía',
      assignee_online: false,
      assignee_offline_since: minutesAgo(108),
    });
    const online = makeTask({
      status: 'en_proceso',
      assigned_to: 'd2',
      assigned_to_name: 'Ana',
      assignee_online: true,
    });
    seed(t, online);
    render(<Kanban mode="staff" />);
    expect(within(cardOf(t)).getByTestId('offline-note')).toHaveTextContent(
      UI_BOARD.card.offlineSince('1 h 48 min'),
    );
    expect(within(cardOf(online)).queryByTestId('offline-note')).toBeNull();
  });

  it('speaks Spanish to screen readers: the drag instructions and what happens during a drag', async () => {
    signIn('admin');
    const t = makeTask();
    seed(t);
    mockFetch(() => json(200, { ...t, status: 'finalizada', version: 2 }));
    render(<Kanban mode="staff" />);
    const described = handleOf(t).getAttribute('aria-describedby');
    expect(document.getElementById(described!)).toHaveTextContent(UI_BOARD.dnd.instructions);
    const handle = handleOf(t);
    handle.focus();
    fireEvent.keyDown(handle, { keyCode: KEY.Space });
    const live = () => document.querySelector('[aria-live="assertive"]')?.textContent ?? '';
    await waitFor(() =>
      expect(live()).toBe(UI_BOARD.dnd.lifted(`${t.title} ${t.trailer_id}`, STATUS_LABELS.bolsa_trabajo)),
    );
    fireEvent.keyDown(handle, { keyCode: KEY.ArrowRight });
    await waitFor(() => expect(live()).toBe(UI_BOARD.dnd.over(STATUS_LABELS.en_proceso, 1)));
    fireEvent.keyDown(handle, { keyCode: KEY.ArrowRight });
    fireEvent.keyDown(handle, { keyCode: KEY.Space });
    await waitFor(() =>
      expect(live()).toBe(UI_BOARD.dnd.dropped(`${t.title} ${t.trailer_id}`, STATUS_LABELS.finalizada)),
    );
    expect(document.body.textContent).not.toMatch(/Press space bar|You have (lifted|dropped|moved)/);
  });

  it('falls back to the SPEC §8 text when the refusal has no detail', async () => {
    signIn('admin');
    const t = makeTask({ status: 'en_proceso', assigned_to: 'd1', assigned_to_name: 'Lucía' });
    seed(t);
    mockFetch(() => new Response('', { status: 500 }));
    render(<Kanban mode="staff" />);
    keyboardDrag(t, ['ArrowLeft']);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(TOAST.updateTaskError));
    expect(useTasks.getState().byId[t.id].status).toBe('en_proceso');
  });

  it('delete asks first; only the confirmation sends it', async () => {
    signIn('gestor');
    const t = makeTask();
    seed(t);
    const fetch = mockFetch(() => json(200, { message: 'Tarea eliminada' }));
    render(<Kanban mode="staff" />);
    await user().click(within(cardOf(t)).getByRole('button', { name: named(UI_BOARD.card.delete, t) }));
    const dialog = screen.getByRole('dialog', { name: UI_BOARD.deleteConfirm.title });
    expect(fetch).not.toHaveBeenCalled();
    await user().click(within(dialog).getByRole('button', { name: UI_BOARD.deleteConfirm.confirm }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(TOAST.taskDeleted));
    expect(fetch.mock.calls[0][1]?.method).toBe('DELETE');
    expect(screen.queryByRole('article')).toBeNull();
  });
});

describe('driver mode', { timeout: 20_000 }, () => {
  it("a held pool task cannot be claimed: 'Asignarme' is disabled and says why", async () => {
    signIn('conductor');
    const t = makeTask({ vehicle_type: 'swap', on_hold: true, hold_reason: 'Remolque dañado' });
    seed(t);
    const fetch = mockFetch(() => json(200, { message: 'ok' }));
    render(<Kanban mode="driver" />);
    const claim = within(cardOf(t)).getByRole('button', { name: UI_BOARD.card.selfAssign });
    expect(claim).toBeDisabled();
    expect(claim).toHaveAttribute('title', UI_BOARD.card.claimHeld('Remolque dañado'));
    expect(within(cardOf(t)).getByTestId('held-note')).toHaveTextContent('Retenida: Remolque dañado');
    // Dragging it to En Proceso is refused on the client too, with the reason.
    keyboardDrag(t, ['ArrowRight']);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(UI_BOARD.card.claimHeld('Remolque dañado')));
    expect(fetch).not.toHaveBeenCalled();
  });

  it("shows 'Asignarme' on a free pool task and 'Devolver' on the driver's own, nothing on others'", () => {
    signIn('conductor');
    const free = makeTask();
    const mine = makeTask({ status: 'en_proceso', assigned_to: 'me', assigned_to_name: 'Yo Mismo' });
    const done = makeTask({
      status: 'finalizada',
      assigned_to: 'me',
      assigned_to_name: 'Yo Mismo',
      completed_at: minutesAgo(3),
    });
    seed(free, mine, done);
    render(<Kanban mode="driver" />);
    expect(within(cardOf(free)).getByRole('button', { name: UI_BOARD.card.selfAssign })).toBeInTheDocument();
    expect(within(cardOf(mine)).getByRole('button', { name: UI_BOARD.card.giveBack })).toBeInTheDocument();
    expect(within(cardOf(done)).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('button', { name: UI_BOARD.card.delete })).toBeNull();
    expect(screen.queryByRole('button', { name: UI_BOARD.card.edit })).toBeNull();
  });

  it("'Asignarme' claims at once (a Swap task after a confirmation) with the server's message", async () => {
    signIn('conductor');
    const semi = makeTask();
    const swap = makeTask({ vehicle_type: 'swap' });
    seed(semi, swap);
    const fetch = mockFetch(() => json(200, { message: 'Te has asignado esta tarea' }));
    render(<Kanban mode="driver" />);
    await user().click(within(cardOf(semi)).getByRole('button', { name: UI_BOARD.card.selfAssign }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Te has asignado esta tarea'));
    expect(String(fetch.mock.calls[0][0])).toContain(`/tasks/${semi.id}/self-assign`);
    expect(useTasks.getState().byId[semi.id]).toMatchObject({ status: 'en_proceso', assigned_to: 'me' });

    await user().click(within(cardOf(swap)).getByRole('button', { name: UI_BOARD.card.selfAssign }));
    const confirm = screen.getByRole('dialog', { name: UI_DRIVER.swap.confirmTitle });
    expect(fetch).toHaveBeenCalledTimes(1);
    await user().click(within(confirm).getByRole('button', { name: UI_DRIVER.swap.confirm }));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
  });

  it("refuses on the client a pool task that is already assigned ('Esta tarea ya está asignada')", async () => {
    signIn('conductor');
    // A stale card: still in the pool here, but the store already knows someone holds it.
    const taken = makeTask({ assigned_to: 'other', assigned_to_name: 'Otro' });
    seed(taken);
    const fetch = mockFetch(() => json(200, {}));
    render(<Kanban mode="driver" />);
    keyboardDrag(taken, ['ArrowRight']);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(ERR.alreadyAssigned));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refuses a drag the SPEC §4 rules do not allow, without calling the server', async () => {
    signIn('conductor');
    const othersDone = makeTask({ status: 'finalizada', assigned_to: 'me', completed_at: minutesAgo(2) });
    seed(othersDone);
    const fetch = mockFetch(() => json(200, {}));
    render(<Kanban mode="driver" />);
    keyboardDrag(othersDone, ['ArrowLeft']);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(ERR.driverMoveRule));
    expect(fetch).not.toHaveBeenCalled();
  });

  it("'Devolver' asks first, with the optional reason, and the card goes back to the pool", async () => {
    signIn('conductor');
    const mine = makeTask({ status: 'en_proceso', assigned_to: 'me', assigned_to_name: 'Yo Mismo' });
    seed(mine);
    const fetch = mockFetch(() => json(200, { message: 'Tarea devuelta a bolsa de trabajo' }));
    render(<Kanban mode="driver" />);
    await user().click(within(cardOf(mine)).getByRole('button', { name: UI_BOARD.card.giveBack }));
    const dialog = screen.getByRole('dialog', { name: UI_DRIVER.returnConfirm.title });
    await user().selectOptions(
      within(dialog).getByLabelText(UI_DRIVER.returnConfirm.reason),
      'Ubicación ocupada',
    );
    await user().click(within(dialog).getByRole('button', { name: UI_DRIVER.returnConfirm.confirm }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(TOAST.returnedToPool));
    expect(String(fetch.mock.calls[0][0])).toContain(`/tasks/${mine.id}/return`);
    expect(sentBody(fetch)).toEqual({ reason: 'Ubicación ocupada' });
    expect(within(column('bolsa_trabajo')).getByRole('article')).toBe(cardOf(mine));
  });

  it("a driver's own card dragged to Finalizada goes the active card's way: the outbox, its Idempotency-Key", async () => {
    signIn('conductor');
    const mine = makeTask({ status: 'en_proceso', assigned_to: 'me', assigned_to_name: 'Yo Mismo' });
    seed(mine);
    const fetch = mockFetch(() => json(200, { message: 'Tarea completada' }));
    render(<Kanban mode="driver" />);
    keyboardDrag(mine, ['ArrowRight']);
    const dialog = await screen.findByRole('dialog', { name: UI_DRIVER.completeConfirm.title });
    await user().click(within(dialog).getByRole('button', { name: UI_DRIVER.completeConfirm.confirm }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Tarea completada'));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String(fetch.mock.calls[0][0])).toContain(`/tasks/${mine.id}/complete`);
    expect(fetch.mock.calls[0][1]?.method).toBe('POST');
    expect(new Headers(fetch.mock.calls[0][1]?.headers).get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(within(column('finalizada')).getByRole('article')).toBe(cardOf(mine));
  });

  it('without a server the dragged completion is kept on the phone and the card stays in Finalizada', async () => {
    signIn('conductor');
    const mine = makeTask({ status: 'en_proceso', assigned_to: 'me', assigned_to_name: 'Yo Mismo' });
    seed(mine);
    const fetch = mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    render(<Kanban mode="driver" />);
    keyboardDrag(mine, ['ArrowRight']);
    const dialog = await screen.findByRole('dialog', { name: UI_DRIVER.completeConfirm.title });
    await user().click(within(dialog).getByRole('button', { name: UI_DRIVER.completeConfirm.confirm }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith(UI_DRIVER.offline.queued));
    expect(fetch).toHaveBeenCalled();
    expect(useOutbox.getState().pending.map((a) => [a.kind, a.task_id])).toEqual([['complete', mine.id]]);
    expect(within(column('finalizada')).getByRole('article')).toBe(cardOf(mine));
    // A resync from a server that has not heard it yet does not bring the card back to En Proceso.
    fetch.mockImplementation(async () => json(200, [mine]));
    await act(() => useTasks.getState().load());
    expect(useTasks.getState().byId[mine.id].status).toBe('finalizada');
  });

  it('on a phone the columns become tabs', async () => {
    signIn('conductor');
    const free = makeTask();
    seed(free);
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width: 767px'),
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    render(<Kanban mode="driver" />);
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual([
      `${STATUS_LABELS.bolsa_trabajo}1 tarea`,
      `${STATUS_LABELS.en_proceso}0 tareas`,
      `${STATUS_LABELS.finalizada}0 tareas`,
    ]);
    expect(cardOf(free)).toBeInTheDocument();
    await user().click(tabs[1]);
    expect(screen.getByText(COLUMN_EMPTY.en_proceso)).toBeInTheDocument();
  });
});

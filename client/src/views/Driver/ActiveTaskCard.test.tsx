import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setActiveTask } from '../../test/driver';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { ERR, TOAST, UI_DRIVER } from '@shared/labels';
import { formatDateTime } from '@shared/time';
import { json, mockFetch, sentBody } from '../../test/http';
import { activeTask, useDriver } from '../../stores/driver';
import { useSession } from '../../stores/session';
import { useTasks } from '../../stores/tasks';
import { DRIVER, makeActive } from './test-fixtures';
import { ActiveTaskCard } from './ActiveTaskCard';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const A = UI_DRIVER.activeTask;

beforeEach(() => {
  useSession.setState({ user: DRIVER, token: 't', status: 'authenticated' });
  useDriver.setState({ activeId: null, activeLoaded: true, swap: [], swapLoaded: true });
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const openDialog = async (button: string, title: string) => {
  await userEvent.click(screen.getByRole('button', { name: button }));
  return screen.findByRole('dialog', { name: title });
};

describe('Mi Tarea Activa', () => {
  it('with no task: Sin Tarea Asignada and the hint', () => {
    render(<ActiveTaskCard />);
    expect(screen.getByRole('heading', { name: A.title })).toBeInTheDocument();
    expect(screen.getByText('Sin Tarea Asignada')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Las tareas Semiremolque se asignan automáticamente; las tareas Swap te las auto-asignas tú',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: A.complete })).not.toBeInTheDocument();
  });

  it("says why it came back when a driver returned it before ('Devuelta antes: …'), and nothing otherwise", () => {
    setActiveTask(makeActive({ last_return_reason: 'Remolque no encontrado' }));
    const { unmount } = render(<ActiveTaskCard />);
    expect(screen.getByTestId('returned-before')).toHaveTextContent('Devuelta antes: Remolque no encontrado');
    unmount();
    setActiveTask(makeActive());
    render(<ActiveTaskCard />);
    expect(screen.queryByTestId('returned-before')).toBeNull();
  });

  it('shows the deadline (CONTRACT §20): Faltan N min in amber, Retrasada in red, nothing without one', () => {
    setActiveTask(makeActive({ due_at: new Date(Date.now() + 25 * 60_000 + 30_000).toISOString() }));
    const { unmount } = render(<ActiveTaskCard />);
    expect(screen.getByTestId('deadline')).toHaveTextContent('Faltan 25 min');
    expect(screen.getByTestId('deadline')).toHaveAttribute('data-tone', 'amber');
    unmount();
    setActiveTask(makeActive({ due_at: new Date(Date.now() - 12 * 60_000 - 30_000).toISOString() }));
    const again = render(<ActiveTaskCard />);
    expect(screen.getByTestId('deadline')).toHaveTextContent('Retrasada 12 min');
    expect(screen.getByTestId('deadline')).toHaveAttribute('data-tone', 'red');
    again.unmount();
    setActiveTask(makeActive());
    render(<ActiveTaskCard />);
    expect(screen.queryByTestId('deadline')).toBeNull();
  });

  it("is the board's task: a change the board receives shows on the card, and its close there ends it here", () => {
    const task = makeActive({ destination: 'Muelle 4' });
    setActiveTask(task);
    render(<ActiveTaskCard />);
    expect(screen.getByText('Muelle 4')).toBeInTheDocument();
    // The board's feed applies a newer version (staff changed the destination): one store, one task.
    act(() => useTasks.getState().apply({ ...task, destination: 'Muelle 9', version: task.version + 1 }));
    expect(screen.getByText('Muelle 9')).toBeInTheDocument();
    expect(screen.queryByText('Muelle 4')).toBeNull();
    // Staff finished it on the board: the card has no active task any more.
    act(() =>
      useTasks
        .getState()
        .apply({ ...task, status: 'finalizada', destination: 'Muelle 9', version: task.version + 2 }),
    );
    expect(screen.getByText('Sin Tarea Asignada')).toBeInTheDocument();
  });

  it('shows the badges and every field of the task', () => {
    const task = makeActive({
      vehicle_type: 'semiremolque_out_km0',
      priority: 'high',
      title: 'Recolocar',
      description: 'Con cuidado, rampa mojada',
      origin: 'Muelle 7',
      destination: 'Zona KM0',
      trailer_id: 'KM0-777',
      created_by_name: 'Marta Gestora',
      assigned_at: '2026-11-22T07:05:00.000Z',
    });
    setActiveTask(task);
    render(<ActiveTaskCard />);
    const card = within(screen.getByTestId('active-task'));
    expect(card.getByText('EN PROCESO')).toBeInTheDocument();
    expect(card.getByText('SEMI OUT KM0')).toBeInTheDocument();
    expect(card.getByRole('heading', { name: 'Recolocar' })).toBeInTheDocument();
    expect(card.getByText('Con cuidado, rampa mojada')).toBeInTheDocument();
    expect(card.getByText('Muelle 7')).toBeInTheDocument();
    expect(card.getByText('Zona KM0')).toBeInTheDocument();
    expect(card.getByText('Remolque')).toBeInTheDocument();
    expect(card.getByTestId('active-trailer')).toHaveTextContent('KM0-777');
    expect(card.getByText('Alta')).toBeInTheDocument();
    expect(card.getByText('Marta Gestora')).toBeInTheDocument();
    expect(card.getByText(A.assignedAt)).toBeInTheDocument();
    expect(card.getByText(formatDateTime('2026-11-22T07:05:00.000Z'))).toHaveTextContent('22/11/2026, 08:05');
  });

  it('labels a Swap task SWAP and a normal one SEMIREMOLQUE', () => {
    setActiveTask(makeActive({ vehicle_type: 'swap' }));
    render(<ActiveTaskCard />);
    expect(screen.getByText('SWAP')).toBeInTheDocument();
    cleanup();
    setActiveTask(makeActive({ vehicle_type: 'semiremolque' }));
    render(<ActiveTaskCard />);
    expect(screen.getByText('SEMIREMOLQUE')).toBeInTheDocument();
  });

  it('completes through the confirmation: server message, then no active task', async () => {
    const task = makeActive();
    setActiveTask(task);
    const fetch = mockFetch(() => json(200, { message: 'Tarea completada. ¡Buen trabajo!' }));
    render(<ActiveTaskCard />);
    const dialog = await openDialog(A.complete, UI_DRIVER.completeConfirm.title);
    // Only the catalogue for the scan (GET /locations) is read before the confirmation.
    const posts = () => fetch.mock.calls.filter((c) => c[1]?.method === 'POST');
    expect(posts()).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: UI_DRIVER.completeConfirm.confirm }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Tarea completada. ¡Buen trabajo!'));
    expect(String(posts()[0]![0])).toContain(`/api/tasks/${task.id}/complete`);
    // The plain completion says nothing of its proof: manual, at the destination.
    expect(JSON.parse(String(posts()[0]![1]?.body ?? '{}'))).toEqual({});
    expect(screen.getByText('Sin Tarea Asignada')).toBeInTheDocument();
  });

  it('returns with the chosen reason through the confirmation', async () => {
    const task = makeActive();
    setActiveTask(task);
    const fetch = mockFetch(() => json(200, { message: 'Tarea devuelta a bolsa de trabajo' }));
    render(<ActiveTaskCard />);
    const dialog = await openDialog(A.returnToPool, UI_DRIVER.returnConfirm.title);
    for (const reason of [
      'Sin motivo',
      'Remolque no encontrado',
      'Remolque dañado',
      'Ubicación ocupada',
      'Otro',
    ])
      expect(within(dialog).getByRole('radio', { name: reason })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Remolque dañado' }));
    await userEvent.click(within(dialog).getByRole('button', { name: UI_DRIVER.returnConfirm.confirm }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Tarea devuelta a bolsa de trabajo'));
    expect(String(fetch.mock.calls[0][0])).toContain(`/api/tasks/${task.id}/return`);
    // CONTRACT §16: an Idempotency-Key on every driver action; client_time only on a replay after an outage.
    expect(sentBody(fetch)).toEqual({ reason: 'Remolque dañado' });
    expect(new Headers(fetch.mock.calls[0][1]?.headers).get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(screen.getByText('Sin Tarea Asignada')).toBeInTheDocument();
  });

  it('returns without a reason by default', async () => {
    setActiveTask(makeActive());
    const fetch = mockFetch(() => json(200, { message: 'Tarea devuelta a bolsa de trabajo' }));
    render(<ActiveTaskCard />);
    const dialog = await openDialog(A.returnToPool, UI_DRIVER.returnConfirm.title);
    await userEvent.click(within(dialog).getByRole('button', { name: UI_DRIVER.returnConfirm.confirm }));
    await waitFor(() => expect(toast.success).toHaveBeenCalled());
    expect(sentBody(fetch)).toEqual({});
  });

  it('a refused completion shows the server detail and keeps the dialog for a retry', async () => {
    const task = makeActive();
    setActiveTask(task);
    mockFetch((path) =>
      path.endsWith('/complete') ? json(500, { detail: 'Error interno del servidor' }) : json(200, task),
    );
    render(<ActiveTaskCard />);
    const dialog = await openDialog(A.complete, UI_DRIVER.completeConfirm.title);
    await userEvent.click(within(dialog).getByRole('button', { name: UI_DRIVER.completeConfirm.confirm }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error interno del servidor'));
    expect(screen.getByRole('dialog', { name: UI_DRIVER.completeConfirm.title })).toBeInTheDocument();
    expect(activeTask()?.id).toBe(task.id);
  });

  it('a 409 (reassigned meanwhile) shows the detail and reloads the active task', async () => {
    setActiveTask(makeActive());
    const fetch = mockFetch((path) =>
      path.endsWith('/return')
        ? json(409, { detail: ERR.notYourTask })
        : json(404, { detail: ERR.noActiveTask }),
    );
    render(<ActiveTaskCard />);
    const dialog = await openDialog(A.returnToPool, UI_DRIVER.returnConfirm.title);
    await userEvent.click(within(dialog).getByRole('button', { name: UI_DRIVER.returnConfirm.confirm }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(ERR.notYourTask));
    await waitFor(() => expect(screen.getByText('Sin Tarea Asignada')).toBeInTheDocument());
    expect(fetch.mock.calls.map((c) => new URL(String(c[0]), 'http://x').pathname)).toContain(
      '/api/tasks/my-active',
    );
  });

  it('falls back to the SPEC §8 texts without a server detail', async () => {
    setActiveTask(makeActive());
    mockFetch(() => new Response('', { status: 500 }));
    render(<ActiveTaskCard />);
    let dialog = await openDialog(A.complete, UI_DRIVER.completeConfirm.title);
    await userEvent.click(within(dialog).getByRole('button', { name: UI_DRIVER.completeConfirm.confirm }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(TOAST.completeError));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));

    dialog = await openDialog(A.returnToPool, UI_DRIVER.returnConfirm.title);
    await userEvent.click(within(dialog).getByRole('button', { name: UI_DRIVER.returnConfirm.confirm }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(TOAST.returnError));
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setActiveTask } from '../../test/driver';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { ERR, TOAST, UI_DRIVER } from '@shared/labels';
import { formatDate } from '@shared/time';
import { json, mockFetch } from '../../test/http';
import { activeTask, useDriver } from '../../stores/driver';
import { useSession } from '../../stores/session';
import { useTimeclock } from '../../stores/timeclock';
import { clockStatus, DRIVER, makeActive, swapTask } from './test-fixtures';
import { SwapPanel } from './SwapPanel';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const S = UI_DRIVER.swap;
const clockedIn = clockStatus({ status: 'clocked_in', can_clock_in: false, can_clock_out: true });
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000 - 2_000).toISOString();

beforeEach(() => {
  useSession.setState({ user: DRIVER, token: 't', status: 'authenticated' });
  useTimeclock.setState({ offsetMs: 0, status: null });
  useDriver.setState({ activeId: null, activeLoaded: true, swap: [], swapLoaded: true });
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const confirmClaim = async (item: HTMLElement) => {
  await userEvent.click(within(item).getByRole('button', { name: S.selfAssign }));
  const dialog = await screen.findByRole('dialog', { name: S.confirmTitle });
  await userEvent.click(within(dialog).getByRole('button', { name: S.confirm }));
};

describe('Swap tasks panel', () => {
  it('shows the count, every field of each task, relative ages and the note', () => {
    const recent = swapTask({
      created_at: minutesAgo(0),
      priority: 'high',
      trailer_id: 'SW-1',
      description: 'Junto a la báscula',
    });
    const older = swapTask({
      created_at: minutesAgo(5),
      description: null,
      trailer_id: 'SW-2',
      created_by_name: 'Pablo',
    });
    const hours = swapTask({ created_at: minutesAgo(3 * 60 + 1), priority: 'low', trailer_id: 'SW-3' });
    const days = swapTask({ created_at: minutesAgo(26 * 60), trailer_id: 'SW-4' });
    useDriver.setState({ swap: [recent, older, hours, days] });
    render(<SwapPanel />);

    expect(screen.getByTestId('swap-count')).toHaveTextContent('4 disponibles');
    const items = screen.getAllByTestId('swap-item');
    expect(items).toHaveLength(4);
    const first = within(items[0]);
    expect(first.getByRole('heading', { name: 'Mover' })).toBeInTheDocument();
    expect(first.getByText('Alta')).toBeInTheDocument();
    expect(first.getByText('SWAP')).toBeInTheDocument();
    expect(first.getByText('Junto a la báscula')).toBeInTheDocument();
    expect(first.getByText('Muelle 3')).toBeInTheDocument();
    expect(first.getByText('Campa Norte')).toBeInTheDocument();
    expect(first.getByText('SW-1')).toBeInTheDocument();
    expect(items[0]).toHaveTextContent('Marta Gestora');
    expect(first.getByText('hace menos de 1 min')).toBeInTheDocument();

    expect(within(items[1]).getByText('hace 5 min')).toBeInTheDocument();
    expect(items[1]).toHaveTextContent('Pablo');
    expect(within(items[2]).getByText('hace 3 h')).toBeInTheDocument();
    expect(within(items[2]).getByText('Baja')).toBeInTheDocument();
    expect(within(items[3]).getByText(formatDate(days.created_at))).toBeInTheDocument();

    expect(screen.getByText(S.note)).toBeInTheDocument();
    // CONTRACT §16: on a phone the list grows with the page; SPEC §2's scroll box from 640 px up.
    expect(screen.getByTestId('swap-list')).toHaveClass('sm:max-h-[30rem]', 'sm:overflow-y-auto');
    expect(screen.getByTestId('swap-list')).not.toHaveClass('max-h-[30rem]');
    expect(screen.getByTestId('swap-list')).not.toHaveClass('overflow-y-auto');
  });

  it('shows each Swap task its deadline (CONTRACT §20)', () => {
    const due = swapTask({ due_at: new Date(Date.now() + 25 * 60_000 + 30_000).toISOString() });
    const none = swapTask();
    useDriver.setState({ swap: [due, none] });
    render(<SwapPanel />);
    const [first, second] = screen.getAllByTestId('swap-item');
    expect(within(first).getByTestId('deadline')).toHaveTextContent('Faltan 25 min');
    expect(within(second).queryByTestId('deadline')).toBeNull();
  });

  it('ages follow the server clock, not the phone clock', () => {
    useTimeclock.setState({ offsetMs: 2 * 3_600_000 });
    useDriver.setState({ swap: [swapTask({ created_at: minutesAgo(0) })] });
    render(<SwapPanel />);
    expect(screen.getByText('hace 2 h')).toBeInTheDocument();
  });

  it('shows the empty state with 0 disponibles and the note', () => {
    render(<SwapPanel />);
    expect(screen.getByTestId('swap-count')).toHaveTextContent('0 disponibles');
    expect(screen.getByText(S.emptyTitle)).toBeInTheDocument();
    expect(screen.getByText(S.note)).toBeInTheDocument();
  });

  it('self-assigns after the confirmation: server message, the task leaves the list and becomes the active task', async () => {
    const task = swapTask({ trailer_id: 'SW-9' });
    const other = swapTask();
    useDriver.setState({ swap: [task, other] });
    const mine = makeActive({ ...task, status: 'en_proceso', assigned_to: DRIVER.id, version: 2 });
    const fetch = mockFetch((path) =>
      path === `/tasks/${task.id}/self-assign`
        ? json(200, { message: 'Te has asignado esta tarea' })
        : path === '/tasks/my-active'
          ? json(200, mine)
          : json(404, { detail: 'x' }),
    );
    render(<SwapPanel />);
    await confirmClaim(screen.getAllByTestId('swap-item')[0]);

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Te has asignado esta tarea'));
    expect(fetch.mock.calls[0][1]?.method).toBe('POST');
    expect(screen.getAllByTestId('swap-item')).toHaveLength(1);
    expect(screen.queryByText('SW-9')).not.toBeInTheDocument();
    expect(screen.getByTestId('swap-count')).toHaveTextContent('1 disponibles');
    expect(activeTask()?.id).toBe(task.id);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('nothing is sent until the driver confirms; Cancelar sends nothing', async () => {
    useDriver.setState({ swap: [swapTask()] });
    const fetch = mockFetch(() => json(200, { message: 'ok' }));
    render(<SwapPanel />);
    await userEvent.click(screen.getByRole('button', { name: S.selfAssign }));
    const dialog = await screen.findByRole('dialog', { name: S.confirmTitle });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(fetch).not.toHaveBeenCalled();
    expect(screen.getAllByTestId('swap-item')).toHaveLength(1);
  });

  it('refuses on the client a task that is already assigned', async () => {
    useDriver.setState({ swap: [swapTask({ assigned_to: 'd2', assigned_to_name: 'Otro' })] });
    const fetch = mockFetch(() => json(200, { message: 'ok' }));
    render(<SwapPanel />);
    await userEvent.click(screen.getByRole('button', { name: S.selfAssign }));
    expect(toast.error).toHaveBeenCalledWith(ERR.alreadyAssigned);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refuses on the client when another driver claimed it while the dialog was open', async () => {
    const task = swapTask();
    useDriver.setState({ swap: [task] });
    const fetch = mockFetch(() => json(200, { message: 'ok' }));
    render(<SwapPanel />);
    await userEvent.click(screen.getByRole('button', { name: S.selfAssign }));
    const dialog = await screen.findByRole('dialog', { name: S.confirmTitle });
    act(() => useDriver.getState().dropTask(task.id)); // task:removed
    await userEvent.click(within(dialog).getByRole('button', { name: S.confirm }));
    expect(toast.error).toHaveBeenCalledWith(ERR.alreadyAssigned);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('a 409 from the server shows its detail and drops the task', async () => {
    useDriver.setState({ swap: [swapTask()] });
    mockFetch(() => json(409, { detail: ERR.alreadyAssigned }));
    render(<SwapPanel />);
    await confirmClaim(screen.getByTestId('swap-item'));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(ERR.alreadyAssigned));
    expect(screen.queryByTestId('swap-item')).not.toBeInTheDocument();
    expect(screen.getByTestId('swap-count')).toHaveTextContent('0 disponibles');
  });

  it('keeps the task and shows the fallback when the request fails without a detail', async () => {
    useDriver.setState({ swap: [swapTask()] });
    mockFetch(() => new Response('', { status: 502 }));
    render(<SwapPanel />);
    await confirmClaim(screen.getByTestId('swap-item'));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(TOAST.selfAssignError));
    expect(screen.getAllByTestId('swap-item')).toHaveLength(1);
  });

  describe('when claiming is not possible (CONTRACT §16)', () => {
    const claimButton = () => screen.getByRole('button', { name: S.selfAssign });

    it('not clocked in: the claim is disabled and the panel asks to clock in first', async () => {
      useTimeclock.setState({ status: clockStatus() });
      useDriver.setState({ swap: [swapTask()] });
      render(<SwapPanel />);
      expect(claimButton()).toBeDisabled();
      expect(screen.getByTestId('swap-blocked')).toHaveTextContent(S.clockInFirst);
      expect(claimButton()).toHaveAccessibleDescription(S.clockInFirst);
      await userEvent.click(claimButton());
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });

    it('holding a task: disabled with the reason; enabled again once the task is done', () => {
      useTimeclock.setState({ status: clockedIn });
      useDriver.setState({ swap: [swapTask()] });
      setActiveTask(makeActive());
      render(<SwapPanel />);
      expect(claimButton()).toBeDisabled();
      expect(screen.getByTestId('swap-blocked')).toHaveTextContent(S.holdingTask);
      expect(claimButton()).toHaveAccessibleDescription(S.holdingTask);
      act(() => setActiveTask(null));
      expect(claimButton()).toBeEnabled();
      expect(screen.queryByTestId('swap-blocked')).not.toBeInTheDocument();
    });

    it('clocked in and free: enabled, no reason shown', () => {
      useTimeclock.setState({ status: clockedIn });
      useDriver.setState({ swap: [swapTask()] });
      render(<SwapPanel />);
      expect(claimButton()).toBeEnabled();
      expect(screen.queryByTestId('swap-blocked')).not.toBeInTheDocument();
    });
  });
});

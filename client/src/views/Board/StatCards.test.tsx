// The driver cards add up (issue 28: `Disponibles 0 de 2 online` beside `Ocupados 11` did not): busy
// drivers whose phones are offline are said apart.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import type { DashboardStats } from '@shared/schemas';
import { UI_BOARD } from '@shared/labels';
import { makeTask } from '../../test/tasks';
import { useStats } from '../../stores/stats';
import { useTasks } from '../../stores/tasks';
import { StatCards } from './StatCards';

const STATS: DashboardStats = {
  bolsa_trabajo: 4,
  en_proceso: 4,
  finalizada: 7,
  online_drivers: 2,
  available_drivers: 0,
  busy_drivers: 3,
  pending_users: 0,
  workload_alert: {
    status: 'critical',
    since: new Date().toISOString(),
    severity: 2,
    message: 'Mensaje',
    recommendations: [],
    metrics: { pending_tasks: 4, available_drivers: 0, busy_drivers: 3, driver_utilization: 100 },
  },
};

const busyCard = () => screen.getByText(UI_BOARD.stats.busy).closest('div')!.parentElement!;

afterEach(() => {
  cleanup();
  useTasks.setState({ byId: {} });
  useStats.setState({ stats: null });
});

describe('the busy drivers card', () => {
  it('splits the busy drivers into online and offline, counting each driver once', () => {
    const running = (driver: string, online: boolean) =>
      makeTask({ status: 'en_proceso', assigned_to: driver, assignee_online: online });
    const tasks = [running('d1', true), running('d2', false), running('d2', false), running('d3', false)];
    act(() => {
      useTasks.setState({ byId: Object.fromEntries(tasks.map((t) => [t.id, t])) });
      useStats.setState({ stats: STATS });
    });
    render(<StatCards role="gestor" />);
    expect(within(busyCard()).getByText(UI_BOARD.stats.busyOnline(1, 2))).toBeInTheDocument();
    expect(UI_BOARD.stats.busyOnline(1, 2)).toBe('1 online · 2 sin conexión');
  });

  it('says nothing more while every busy driver is online', () => {
    const task = makeTask({ status: 'en_proceso', assigned_to: 'd1', assignee_online: true });
    act(() => {
      useTasks.setState({ byId: { [task.id]: task } });
      useStats.setState({ stats: STATS });
    });
    render(<StatCards role="gestor" />);
    expect(within(busyCard()).queryByText(/sin conexión/)).toBeNull();
  });
});

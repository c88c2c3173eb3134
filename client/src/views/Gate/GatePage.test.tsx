// /porteria (CONTRACT §19): staff land in the shell on the Portería, its header button pressed; a conductor
// is sent to their own screen; leaving for another view goes on at /dashboard.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import type { Role } from '@shared/enums';
import { UI_GATE, VIEW_LABELS } from '@shared/labels';
import { App } from '../../App';
import { json, mockFetch } from '../../test/http';
import { resetSessionStores } from '../../stores/session-end';
import { useSession } from '../../stores/session';
import { useUi } from '../../stores/ui';
import { GATE_PATH } from './path';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() } }));

let path = '';
function Where() {
  path = useLocation().pathname;
  return null;
}

const login = (role: Role) =>
  useSession.setState({
    token: 't',
    user: { id: 'me', name: 'Portera', email: 'p@patio.es', role },
    status: 'authenticated',
  });

beforeEach(() => {
  mockFetch((p) => (p === '/gate/visits' ? json(200, { visits: [] }) : json(200, [])));
});
afterEach(() => {
  cleanup();
  resetSessionStores('me');
  vi.unstubAllGlobals();
});

const renderAt = (url: string) =>
  render(
    <MemoryRouter initialEntries={[url]}>
      <App />
      <Where />
    </MemoryRouter>,
  );

describe('/porteria', () => {
  it('opens the staff shell on the Portería, and another view goes on at /dashboard', async () => {
    login('gestor');
    renderAt(GATE_PATH);
    expect(await screen.findByRole('form', { name: UI_GATE.entryTitle })).toBeTruthy();
    expect(await screen.findByText(UI_GATE.inYardEmpty)).toBeTruthy();
    const nav = screen.getByRole('navigation');
    expect(within(nav).getByRole('button', { name: VIEW_LABELS.gate }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(path).toBe(GATE_PATH);
    await userEvent.click(within(nav).getByRole('button', { name: VIEW_LABELS.yard }));
    expect(useUi.getState().view).toBe('yard');
    expect(path).toBe('/dashboard');
  });

  it('sends a conductor to their own screen', () => {
    login('conductor');
    renderAt(GATE_PATH);
    expect(path).toBe('/dashboard');
    expect(screen.queryByRole('form', { name: UI_GATE.entryTitle })).toBeNull();
  });
});

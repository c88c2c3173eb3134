import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import type { DbStatus, HealthCheck, LogEntry } from '@shared/schemas';
import { json, mockFetch } from '../../test/http';
import { NO_LOG_FILTERS, useSystem } from '../../stores/system';
import { AdminPanelView } from './AdminPanelView';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const health: HealthCheck = {
  overall_status: 'warning',
  checks: {
    database: { status: 'healthy', message: 'Integridad correcta (120 KB)' },
    disk: { status: 'healthy', message: '20 GB libres de 40 GB (50 %)' },
    memory: { status: 'healthy', message: 'Proceso 80 MB' },
    event_loop: { status: 'healthy', message: 'Retardo p99 3 ms' },
    websocket: { status: 'healthy', message: '4 clientes conectados' },
    auto_assignment: { status: 'warning', message: '2 tareas automáticas en la bolsa' },
    // A status the client does not know is shown as unknown (SPEC §4).
    backup: { status: 'stale' as never, message: 'No hay ninguna copia de seguridad' },
  },
};
const dbStatus = (issues: number): DbStatus => ({
  collections: { users: 12, tasks: 40, activity_log: 300 },
  users_by_role: { conductor: 8, gestor: 2, manager: 1, admin: 1 },
  tasks_by_status: { bolsa_trabajo: 3, en_proceso: 2, finalizada: 35 },
  data_integrity: { has_issues: issues > 0, users_without_task_types: issues },
});
const logs: LogEntry[] = [
  {
    id: 2,
    type: 'user',
    user: 'Admin Patio',
    action: 'Cambiar rol',
    details: 'El rol de Luis pasó de Conductor a Gestor',
    timestamp: '2026-07-01T10:30:00.000Z',
  },
  {
    id: 1,
    type: 'auth',
    user: 'Luis',
    action: 'Iniciar sesión',
    details: 'Luis inició sesión',
    timestamp: '2026-07-01T10:00:00.000Z',
  },
];

type Answers = Record<string, () => Response>;
const serve = (answers: Answers) =>
  mockFetch((path, init) => {
    const answer = answers[`${init.method ?? 'GET'} ${path}`];
    return answer ? answer() : json(404, { detail: 'Recurso no encontrado' });
  });
const reads = (issues = 0): Answers => ({
  'GET /admin/system/db-status': () => json(200, dbStatus(issues)),
  'GET /admin/system/health-check': () => json(200, health),
  'GET /admin/system/logs': () => json(200, logs),
});

beforeEach(() => {
  useSystem.setState({
    dbStatus: null,
    health: null,
    logs: null,
    failed: {},
    refreshing: false,
    logFilters: NO_LOG_FILTERS,
    logsMore: false,
  });
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Radix dialogs and role queries are slow in jsdom on a loaded machine; the default 5 s is tight.
describe('Sistema view (SPEC §2)', { timeout: 15_000 }, () => {
  it('shows the overall status and one card per check with its Spanish title and message', async () => {
    serve(reads());
    render(<AdminPanelView />);
    const overall = await screen.findByTestId('health-overall');
    expect(overall).toHaveTextContent('Advertencia');
    const titles = [
      'Base de datos',
      'Disco',
      'Memoria',
      'Bucle de eventos',
      'Tiempo real',
      'Asignación automática',
    ];
    for (const [i, name] of [
      'database',
      'disk',
      'memory',
      'event_loop',
      'websocket',
      'auto_assignment',
    ].entries())
      expect(screen.getByTestId(`health-${name}`)).toHaveTextContent(titles[i]);
    expect(screen.getByTestId('health-auto_assignment')).toHaveTextContent('Advertencia2 tareas automáticas');
    expect(screen.getByTestId('health-database')).toHaveTextContent('Saludable');
    expect(screen.getByTestId('health-backup')).toHaveTextContent('Copias de seguridadDesconocido');
  });

  it('shows the database status and the activity log newest first with Madrid times', async () => {
    serve(reads());
    render(<AdminPanelView />);
    expect(await screen.findByText('Sin problemas de integridad')).toBeInTheDocument();
    expect(screen.getByText('Finalizada').closest('li')).toHaveTextContent('35');
    expect(screen.getByText('Administrador').closest('li')).toHaveTextContent('1');
    expect(screen.getAllByText('Conductor')[0].closest('li')).toHaveTextContent('8');
    expect(screen.getByText('Registro de actividad').closest('div')).toHaveTextContent('300');
    const rows = within(screen.getByTestId('activity-log')).getAllByRole('row');
    expect(rows[0]).toHaveTextContent(
      'UsuarioAdmin PatioCambiar rolEl rol de Luis pasó de Conductor a Gestor01/07/2026, 12:30:00',
    );
    expect(rows[1]).toHaveTextContent('SesiónLuisIniciar sesión');
  });

  it('each part that fails to load says so, the others still show', async () => {
    serve({ 'GET /admin/system/health-check': () => json(200, health) });
    render(<AdminPanelView />);
    await screen.findByTestId('health-overall');
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledTimes(2));
    expect(toast.error).toHaveBeenCalledWith('Recurso no encontrado', expect.anything());
    vi.mocked(toast.error).mockClear();

    serve({});
    mockFetch(() => new Response('', { status: 500 }));
    await userEvent.click(screen.getByRole('button', { name: 'Actualizar' }));
    const texts = vi.mocked(toast.error).mock.calls.map((c) => c[0]);
    expect(texts.sort()).toEqual([
      'Error al cargar estado de BD',
      'Error al cargar health check',
      'Error al cargar logs',
    ]);
    expect(screen.getByText('Error al cargar logs')).toBeInTheDocument();
  });

  it('warns about drivers without task types and runs the migrations after confirming', async () => {
    let issues = 2;
    const fetch = serve({
      ...reads(),
      'GET /admin/system/db-status': () => json(200, dbStatus(issues)),
      'POST /admin/system/run-migrations': () => {
        issues = 0;
        return json(200, { message: 'Migraciones al día. Reparados 2 conductores sin tipos de tarea' });
      },
    });
    render(<AdminPanelView />);
    const warning = await screen.findByRole('alert');
    expect(warning).toHaveTextContent('2 conductores sin tipos de tarea');
    await userEvent.click(within(warning).getByRole('button', { name: 'Ejecutar migraciones' }));
    const dialog = screen.getByRole('dialog', { name: 'Ejecutar migraciones' });
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ejecutar' }));
    expect(toast.success).toHaveBeenCalledWith(
      'Migraciones al día. Reparados 2 conductores sin tipos de tarea',
    );
    expect(await screen.findByText('Sin problemas de integridad')).toBeInTheDocument();
  });

  it("closes every session only after confirming; a failure says 'Error al limpiar tokens'", async () => {
    const fetch = serve({
      ...reads(),
      'POST /admin/system/clear-all-tokens': () => new Response('', { status: 500 }),
    });
    render(<AdminPanelView />);
    await screen.findByTestId('health-overall');
    await userEvent.click(screen.getByRole('button', { name: 'Cerrar todas las sesiones' }));
    const dialog = screen.getByRole('dialog', { name: 'Cerrar todas las sesiones' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Cerrar todas las sesiones' }));
    await userEvent.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Cerrar sesiones' }),
    );
    expect(fetch.mock.calls.at(-1)![0]).toMatch(/\/api\/admin\/system\/clear-all-tokens$/);
    expect(toast.error).toHaveBeenCalledWith('Error al limpiar tokens');
  });

  it('takes a backup on demand after confirming and shows the server message', async () => {
    serve({
      ...reads(),
      'POST /admin/system/backup': () =>
        json(200, { message: 'Copia de seguridad creada: torre-2026.db', file: 'torre-2026.db' }),
    });
    render(<AdminPanelView />);
    await screen.findByTestId('health-overall');
    await userEvent.click(screen.getByRole('button', { name: 'Crear copia de seguridad' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Crear copia' }));
    expect(toast.success).toHaveBeenCalledWith('Copia de seguridad creada: torre-2026.db');
  });
});

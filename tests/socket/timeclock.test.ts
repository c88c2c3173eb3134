// The time clock over the socket (CONTRACT §9): timeclock:updated to the owner, timeclock:changed to
// managers and admins, nothing to gestores or other drivers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardStats } from '@shared/schemas';
import {
  collect,
  connectSocket,
  makeUser,
  nextEvent,
  setupServer,
  type TestSocket,
} from '../helpers/context';

let server: Awaited<ReturnType<typeof setupServer>>;
beforeAll(async () => {
  server = await setupServer();
});
afterAll(async () => {
  await server.close();
});

const punch = (auth: Record<string, string>, clockType: 'entrada' | 'salida') =>
  server.api().post(`/api/timeclock/punch?clock_type=${clockType}`).set(auth).expect(200);

/** The next stats:updated that satisfies `pick`. */
function statsWhere(socket: TestSocket, pick: (s: DashboardStats) => boolean): Promise<DashboardStats> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no matching stats:updated')), 3000);
    const on = ({ stats }: { stats: DashboardStats }) => {
      if (!pick(stats)) return;
      clearTimeout(timer);
      socket.off('stats:updated', on);
      resolve(stats);
    };
    socket.on('stats:updated', on);
  });
}

describe('a punch', () => {
  it('reaches its driver and the supervisors, and no one else', async () => {
    const driver = makeUser('conductor');
    const other = makeUser('conductor');
    const [admin, manager, gestor] = (['admin', 'manager', 'gestor'] as const).map((r) => makeUser(r));
    const sockets = await Promise.all(
      [driver, other, admin, manager, gestor].map((u) => connectSocket(server.url, u.token)),
    );
    const [driverSocket, otherSocket, adminSocket, managerSocket, gestorSocket] = sockets;
    const otherUpdated = collect(otherSocket, 'timeclock:updated');
    const otherChanged = collect(otherSocket, 'timeclock:changed');
    const gestorChanged = collect(gestorSocket, 'timeclock:changed');
    const gestorUpdated = collect(gestorSocket, 'timeclock:updated');
    const updated = nextEvent(driverSocket, 'timeclock:updated');
    const forAdmin = nextEvent(adminSocket, 'timeclock:changed');
    const forManager = nextEvent(managerSocket, 'timeclock:changed');
    // Stats computed after the punch (the driver is now available) reach the gestor after anything
    // the punch itself would have sent them.
    const gestorBarrier = statsWhere(gestorSocket, (s) => s.available_drivers === 1);

    await punch(driver.auth, 'entrada');
    const rest = (await server.api().get('/api/timeclock/status').set(driver.auth)).body;
    expect(rest.status).toBe('clocked_in');
    expect(await updated).toEqual({ status: rest });
    expect(await forAdmin).toEqual({ user_id: driver.user.id, status: rest });
    expect(await forManager).toEqual({ user_id: driver.user.id, status: rest });

    await gestorBarrier;
    const otherBarrier = nextEvent(otherSocket, 'timeclock:updated');
    await punch(other.auth, 'entrada');
    expect((await otherBarrier).status.status).toBe('clocked_in');
    expect(gestorChanged).toEqual([]);
    expect(gestorUpdated).toEqual([]);
    expect(otherChanged).toEqual([]);
    expect(otherUpdated).toHaveLength(1);

    const out = nextEvent(adminSocket, 'timeclock:changed');
    await punch(driver.auth, 'salida');
    expect(await out).toMatchObject({ user_id: driver.user.id, status: { status: 'clocked_out' } });
    sockets.forEach((s) => s.close());
  });
});

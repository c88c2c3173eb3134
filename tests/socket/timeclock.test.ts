// The time clock over the socket (CONTRACT §9): timeclock:updated to the owner, timeclock:changed to
// managers and admins, nothing to gestores or other drivers.
import { describe, expect, it } from 'vitest';
import { collect, liveServer, makeUser, nextEvent, nextMatching } from '../helpers/context';

const server = liveServer();

const punch = (auth: Record<string, string>, clockType: 'entrada' | 'salida') =>
  server.api().post(`/api/timeclock/punch?clock_type=${clockType}`).set(auth).expect(200);

describe('a punch', () => {
  it('reaches its driver and the supervisors, and no one else', async () => {
    const driver = await makeUser('conductor');
    const other = await makeUser('conductor');
    const admin = await makeUser('admin');
    const manager = await makeUser('manager');
    const gestor = await makeUser('gestor');
    const [driverSocket, otherSocket, adminSocket, managerSocket, gestorSocket] = await Promise.all(
      [driver, other, admin, manager, gestor].map((u) => server.connect(u.token)),
    );
    const otherUpdated = collect(otherSocket, 'timeclock:updated');
    const otherChanged = collect(otherSocket, 'timeclock:changed');
    const gestorChanged = collect(gestorSocket, 'timeclock:changed');
    const gestorUpdated = collect(gestorSocket, 'timeclock:updated');
    const updated = nextEvent(driverSocket, 'timeclock:updated');
    const forAdmin = nextEvent(adminSocket, 'timeclock:changed');
    const forManager = nextEvent(managerSocket, 'timeclock:changed');
    // Stats computed after the punch (the driver is now available) reach the gestor after anything
    // the punch itself would have sent them.
    const gestorBarrier = nextMatching(
      gestorSocket,
      'stats:updated',
      ({ stats }) => stats.available_drivers === 1,
    );

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
  });
});

// run-migrations' repair reaches open pages (CONTRACT §9): admins get users:changed for each repaired
// driver, and the driver's open sockets join the room of their new task type.
import { describe, expect, it } from 'vitest';
import { ROOMS } from '@shared/events';
import { liveServer, makeUser, nextMatching } from '../helpers/context';

const server = liveServer();

describe('run-migrations repair', () => {
  it('pushes users:changed to admins and puts the driver in the semiremolque room', async () => {
    const admin = await makeUser('admin');
    const driver = await makeUser('conductor', { taskTypes: [] });
    const adminSocket = await server.connect(admin.token);
    await server.connect(driver.token);
    const inRoom = async () =>
      (await server.io.in(ROOMS.type('semiremolque')).fetchSockets()).map((s) => s.data.userId);
    expect(await inRoom()).not.toContain(driver.user.id);

    // The driver coming online is also a users:changed; wait for the one that carries the repair.
    const changed = nextMatching(
      adminSocket,
      'users:changed',
      ({ user }) => user.id === driver.user.id && user.task_types.length > 0,
    );
    const res = await server.api().post('/api/admin/system/run-migrations').set(admin.auth);
    expect(res.body.message).toBe('Migraciones al día. Reparado 1 conductor sin tipos de tarea');
    const { user } = await changed;
    expect(user).toMatchObject({ id: driver.user.id, role: 'conductor', task_types: ['semiremolque'] });
    expect(user).not.toHaveProperty('password_hash');
    expect(await inRoom()).toContain(driver.user.id);
  });
});

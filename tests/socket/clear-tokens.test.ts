// clear-all-tokens over the socket (CONTRACT §4, §9): every other session hears session:revoked
// {reason:'tokens_cleared'} and is dropped at once; the caller's sockets stay.
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { REVOKE_MESSAGES } from '@shared/events';
import { users } from '../../server/db/tables';
import { collect, db, liveServer, makeUser, nextEvent, type TestSocket } from '../helpers/context';

const server = liveServer();

const disconnected = (socket: TestSocket) =>
  new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
const isOnline = async (id: string) =>
  (await db.select({ online: users.isOnline }).from(users).where(eq(users.id, id)))[0]!.online;

describe('clear-all-tokens', () => {
  it("revokes and drops every other user's sockets, not the caller's", async () => {
    const caller = await makeUser('admin');
    const driver = await makeUser('conductor');
    const manager = await makeUser('manager');
    const callerSocket = await server.connect(caller.token);
    const callerWallScreen = await server.connect(caller.token);
    const driverSocket = await server.connect(driver.token);
    const managerSocket = await server.connect(manager.token);
    const callerRevoked = collect(callerSocket, 'session:revoked');
    const wallScreenRevoked = collect(callerWallScreen, 'session:revoked');
    // A recent request also keeps a user online (the polling fallback, 90 s): revocation must end that too.
    expect((await server.api().get('/api/notifications').set(driver.auth)).status).toBe(200);
    expect(await isOnline(driver.user.id)).toBe(true);

    const driverRevoked = nextEvent(driverSocket, 'session:revoked');
    const managerRevoked = nextEvent(managerSocket, 'session:revoked');
    const driverGone = disconnected(driverSocket);
    const managerGone = disconnected(managerSocket);

    const res = await server.api().post('/api/admin/system/clear-all-tokens').set(caller.auth);
    expect(res.status).toBe(200);
    // offline as soon as the answer arrives, not after the polling window
    expect(await isOnline(driver.user.id)).toBe(false);
    expect(await isOnline(manager.user.id)).toBe(false);

    const expected = { reason: 'tokens_cleared', detail: REVOKE_MESSAGES.tokens_cleared };
    expect(await driverRevoked).toEqual(expected);
    expect(await managerRevoked).toEqual(expected);
    expect(await driverGone).toBe('io server disconnect');
    expect(await managerGone).toBe('io server disconnect');

    // The revocations went out together; the caller's sockets are still up and heard none of them.
    expect(callerSocket.connected).toBe(true);
    expect(callerWallScreen.connected).toBe(true);
    expect(callerRevoked).toEqual([]);
    expect(wallScreenRevoked).toEqual([]);
    expect(await isOnline(caller.user.id)).toBe(true);

    // The old token cannot open a socket again.
    await expect(server.connect(driver.token)).rejects.toThrow('No autorizado');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSocket, makeUser, nextEvent, setupServer, advanceClock } from '../helpers/context';
import { TOKEN_TTL_MS } from '@shared/constants';

let server: Awaited<ReturnType<typeof setupServer>>;
beforeAll(async () => {
  server = await setupServer();
});
afterAll(async () => {
  await server.close();
});

describe('socket handshake', () => {
  it('refuses a forged token with No autorizado', async () => {
    await expect(connectSocket(server.url, 'not-a-token')).rejects.toThrow('No autorizado');
  });

  it('accepts a valid token and drops the socket when the token expires', async () => {
    const driver = makeUser('conductor');
    const socket = await connectSocket(server.url, driver.token);
    expect(socket.connected).toBe(true);
    const revoked = nextEvent(socket, 'session:revoked');
    advanceClock(TOKEN_TTL_MS + 1000);
    expect((await revoked).reason).toBe('expired');
    socket.close();
  });
});

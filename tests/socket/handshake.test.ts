import { describe, expect, it } from 'vitest';
import { liveServer, makeUser, nextEvent, advanceClock } from '../helpers/context';
import { TOKEN_TTL_MS } from '@shared/constants';

const server = liveServer();

describe('socket handshake', () => {
  it('refuses a forged token with No autorizado', async () => {
    await expect(server.connect('not-a-token')).rejects.toThrow('No autorizado');
  });

  it('accepts a valid token and drops the socket when the token expires', async () => {
    const driver = await makeUser('conductor');
    const socket = await server.connect(driver.token);
    expect(socket.connected).toBe(true);
    const revoked = nextEvent(socket, 'session:revoked');
    await advanceClock(TOKEN_TTL_MS + 1000);
    expect((await revoked).reason).toBe('expired');
  });
});

// Socket.IO on the app's HTTP server: JWT handshake, rooms (CONTRACT §9), presence, token expiry.
import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { EV, REVOKE_MESSAGES, type ClientToServerEvents, type ServerToClientEvents } from '@shared/events';
import { ERR } from '@shared/labels';
import { logger } from '../logger';
import { viewerRooms } from '@shared/visibility';
import { config } from '../config';
import { nowMs, onClockAdvance, runClockListeners, shiftClock } from '../clock';
import { isPostgres } from '../db';
import { authenticateToken } from '../http/auth';
import { presence, PRESENCE_SWEEP_MS } from '../services/presence';
import { clustered, useClusterAdapter } from './cluster';
import {
  getIo,
  revocationCount,
  revokeHere,
  setIo,
  type InterServerEvents,
  type IoServer,
  type SocketData,
} from './emit';

export function attachRealtime(httpServer: HttpServer): IoServer {
  const io: IoServer = new Server(httpServer, {
    path: '/socket.io',
    cors: config.corsOrigin ? { origin: config.corsOrigin, credentials: true } : undefined,
    serveClient: false,
    // WebSocket only (CONTRACT §18): a balancer needs no sticky sessions, as long polling would (its
    // handshake spans several requests that must reach one node). Where WebSocket cannot pass, the
    // client's REST polling fallback (SPEC §9) keeps the screens current.
    transports: ['websocket'],
  });
  // PostgreSQL: other nodes may serve the same yard; every emit and room change reaches them too.
  const closeAdapter = isPostgres ? useClusterAdapter(io, config.databaseUrl!) : undefined;
  io.on('clockShifted', (ms, done) => void shiftClock(ms).then(() => done(true)));
  io.on('clockListeners', (done) => void runClockListeners().then(() => done(true)));
  io.on('revoke', revokeHere);
  io.on('presenceForgotten', (userId) => presence.dropLocal(userId));

  io.use((socket, next) => {
    void handshake(socket).then(
      () => next(),
      () => next(new Error(ERR.unauthorized)),
    );
  });

  io.on('connection', (socket) => {
    const { userId, role, taskTypes } = socket.data;
    // Rooms are per node, with either adapter: joined at once. Which tasks reach them: shared/visibility.ts.
    void socket.join(viewerRooms({ id: userId, role, taskTypes }, socket.data.sid));
    // A revocation pushed while the handshake awaited its reads found no socket of it in the rooms.
    if (revocationCount() !== socket.data.revocations) void recheck(socket);
    // Presence is counted at once; its database mirror and announcement follow on their own.
    void presence.socketConnected(userId);
    const expiry = setTimeout(() => expire(socket), Math.max(0, socket.data.exp - nowMs()));
    socket.on('disconnect', () => {
      clearTimeout(expiry);
      void presence.socketDisconnected(userId);
    });
  });

  // A moved test clock may have expired tokens: drop those sockets before the answer.
  const offClock = onClockAdvance(() => {
    for (const socket of io.sockets.sockets.values()) if (socket.data.exp <= nowMs()) expire(socket);
    return presence.sweep();
  });
  const sweeper = setInterval(() => void presence.sweep(), PRESENCE_SWEEP_MS);
  sweeper.unref();
  httpServer.on('close', () => {
    offClock();
    clearInterval(sweeper);
    setIo(undefined);
    void closeAdapter?.();
  });

  setIo(io);
  return io;
}

type IoSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** The handshake's checks: a valid token of a session still open, of a user who may open a socket. */
async function handshake(socket: IoSocket): Promise<void> {
  const token = String(socket.handshake.auth?.token ?? '');
  const revocations = revocationCount();
  const { user, claims } = await authenticateToken(token);
  // A password_change_required token opens no socket (CONTRACT §14).
  if (user.mustChangePassword) throw new Error(ERR.mustChangePassword);
  socket.data = {
    userId: user.id,
    role: user.role,
    sid: claims.sid,
    exp: claims.exp * 1000,
    taskTypes: user.taskTypes,
    revocations,
  };
}

/** Looks at the socket's session again, now that it is in its rooms; a revoked one is dropped. */
async function recheck(socket: IoSocket): Promise<void> {
  try {
    await authenticateToken(String(socket.handshake.auth?.token ?? ''));
  } catch {
    // As for an expired token: the client reconnects, and the handshake refuses it with No autorizado.
    expire(socket);
  }
}

function expire(socket: IoSocket): void {
  socket.emit(EV.sessionRevoked, { reason: 'expired', detail: REVOKE_MESSAGES.expired });
  socket.disconnect(true);
}

/** How many sockets this node serves; undefined with no Socket.IO attached (services/health.ts). */
export const socketsServing = (): number | undefined => getIo()?.engine.clientsCount;

/**
 * The test clock moved here (CONTRACT §18): every other node moves too — each shifts and heartbeats first,
 * then each runs what depends on time — and the answer waits for them (up to the adapter's 5 s: a node
 * that died meanwhile answers nothing).
 */
export async function clockMovedElsewhere(phase: 'shift' | 'listeners', ms: number): Promise<void> {
  const io = getIo();
  if (!io || !clustered()) return;
  try {
    if (phase === 'shift') await io.serverSideEmitWithAck('clockShifted', ms);
    else await io.serverSideEmitWithAck('clockListeners');
  } catch (err) {
    logger.warn({ err }, 'reloj de pruebas: algún nodo no confirmó el cambio');
  }
}

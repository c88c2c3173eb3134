// Test foundations: a fresh database and app per test, factories that create approved users of each
// role, tasks and punches in one line, and the server clock under the test's control. The database is a
// copy of one migrated file (SQLite's reader and writer need a file, as in production).
import { plateKey } from '@shared/text';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import bcrypt from 'bcrypt';
import supertest from 'supertest';
import { io as ioClient, type Socket } from 'socket.io-client';
import type { Role, VehicleType, Priority, TaskStatus, ClockType } from '@shared/enums';
import type { ClientToServerEvents, ServerToClientEvents } from '@shared/events';
import type { Task } from '@shared/schemas';
import { configure } from '../../server/config';
import { openDb, runMigrations, closeDb, db, tx, isPostgres } from '../../server/db';
import { closeDatabase, openDatabase } from '../../server/db/open';
import { freshPostgresDatabaseUrl } from './postgres-db';
import { users, tasks, punches, type UserRow, type TaskRow } from '../../server/db/tables';
import { createApp } from '../../server/app';
import { startServer, type RunningServer } from '../../server/server';
import { openSession } from '../../server/services/sessions';
import { advanceClock, now, resetClock } from '../../server/clock';

export { advanceClock, now, resetClock, db, tx };

export const PASSWORD = 'contraseña-segura';
const passwordHash = bcrypt.hashSync(PASSWORD, 4);

// One folder per test process for its database files, removed when the process ends.
const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'torre-test-'));
process.once('exit', () => fs.rmSync(filesDir, { recursive: true, force: true }));
let template: string | undefined;
let fileSeq = 0;
let previousFile: string | undefined;

/** A new database file: a copy of one migrated once per process (the previous test's copy is removed). */
export function freshDbFile(): string {
  if (!template) {
    template = path.join(filesDir, 'template.db');
    openDb(template);
    runMigrations();
    closeDb();
  }
  if (previousFile) {
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(previousFile + suffix, { force: true });
  }
  const file = path.join(filesDir, `test-${++fileSeq}.db`);
  fs.copyFileSync(template, file);
  previousFile = file;
  return file;
}

/** Where a fresh database is: a new SQLite file, or a new PostgreSQL database (project server-pg). */
async function freshDatabase(): Promise<{ dbPath: string; databaseUrl?: string }> {
  await closeDatabase();
  if (isPostgres) return { dbPath: ':memory:', databaseUrl: await freshPostgresDatabaseUrl() };
  return { dbPath: freshDbFile() };
}

/** A fresh database with migrations applied, and the Express app over it. */
export async function setupDb() {
  const where = await freshDatabase();
  configure({ ...where, testClock: true, serveClient: false, bcryptCost: 4 });
  await openDatabase(where);
  resetClock();
  return createApp();
}

export async function setupApp() {
  const app = await setupDb();
  return { app, api: () => supertest(app) };
}

/** A real listening server (HTTP + Socket.IO) on a random port over a fresh database. */
export async function setupServer(): Promise<RunningServer & { api: () => supertest.Agent }> {
  configure({
    ...(await freshDatabase()),
    testClock: true,
    serveClient: false,
    bcryptCost: 4,
    adminEmail: 'root@test.local',
    adminPassword: PASSWORD,
  });
  resetClock();
  const server = await startServer({ port: 0, host: '127.0.0.1', print: () => {} });
  return { ...server, api: () => supertest.agent(server.http) };
}

/** A token of a new login session of the user (as a login would open). */
export const tokenFor = async (user: { id: string; tokenVersion: number }): Promise<string> =>
  (await openSession(user)).token;

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export interface TestUser {
  user: UserRow;
  token: string;
  auth: { Authorization: string };
}

/** An approved user of the role (conductors get semiremolque unless task_types says otherwise). */
export async function makeUser(
  role: Role,
  opts: Partial<{
    name: string;
    email: string;
    taskTypes: VehicleType[];
    approved: boolean;
    online: boolean;
  }> = {},
): Promise<TestUser> {
  const id = crypto.randomUUID();
  const tag = unique();
  const [row] = await tx(() =>
    db
      .insert(users)
      .values({
        id,
        email: opts.email ?? `${role}-${tag}@test.local`,
        name: opts.name ?? `${role} ${tag}`,
        passwordHash,
        role,
        isApproved: opts.approved ?? true,
        isOnline: opts.online ?? false,
        taskTypes: opts.taskTypes ?? (role === 'conductor' ? ['semiremolque'] : []),
        createdAt: now(),
        approvedAt: opts.approved === false ? null : now(),
      })
      .returning(),
  );
  const token = await tokenFor(row!);
  return { user: row!, token, auth: { Authorization: `Bearer ${token}` } };
}

let trailerSeq = 0;
/** A task row straight into the database (no engine, no events): for setting up a scene. */
export async function makeTask(
  fields: Partial<{
    title: 'Mover' | 'Recolocar';
    origin: string;
    destination: string;
    trailerId: string;
    priority: Priority;
    status: TaskStatus;
    vehicleType: VehicleType;
    assignedTo: string | null;
    createdBy: string | null;
    createdAt: Date;
    assignedAt: Date | null;
    completedAt: Date | null;
    description: string | null;
  }> = {},
): Promise<TaskRow> {
  const at = fields.createdAt ?? now();
  const status = fields.status ?? 'bolsa_trabajo';
  const trailerId = fields.trailerId ?? `R-${String(++trailerSeq).padStart(4, '0')}-TST`;
  const [row] = await tx(() =>
    db
      .insert(tasks)
      .values({
        id: crypto.randomUUID(),
        title: fields.title ?? 'Mover',
        description: fields.description ?? null,
        origin: fields.origin ?? 'Muelle 1',
        destination: fields.destination ?? 'Campa A-12',
        trailerId,
        trailerKey: plateKey(trailerId),
        priority: fields.priority ?? 'normal',
        status,
        vehicleType: fields.vehicleType ?? 'semiremolque',
        assignedTo: fields.assignedTo ?? null,
        createdBy: fields.createdBy ?? null,
        createdAt: at,
        updatedAt: at,
        assignedAt: fields.assignedAt ?? (fields.assignedTo ? at : null),
        completedAt: fields.completedAt ?? (status === 'finalizada' ? at : null),
        statusSince: at,
      })
      .returning(),
  );
  return row!;
}

export async function makePunch(
  userId: string,
  clockType: ClockType,
  at: Date = now(),
  fields: Partial<typeof punches.$inferInsert> = {},
): Promise<void> {
  await tx(() =>
    db.insert(punches).values({ id: crypto.randomUUID(), userId, clockType, timestamp: at, ...fields }),
  );
}

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A connected socket.io client for a token; rejects with the connect_error message. */
export function connectSocket(url: string, token: string): Promise<TestSocket> {
  return new Promise((resolve, reject) => {
    const socket: TestSocket = ioClient(url, {
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

/** Resolves with the next payload of an event, or rejects after `ms`. */
export function nextEvent<E extends keyof ServerToClientEvents>(
  socket: TestSocket,
  event: E,
  ms = 2000,
): Promise<Parameters<ServerToClientEvents[E]>[0]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event, ((payload: Parameters<ServerToClientEvents[E]>[0]) => {
      clearTimeout(timer);
      resolve(payload);
    }) as never);
  });
}

/** Collects every payload of an event, to assert later that something did NOT arrive. */
export function collect<E extends keyof ServerToClientEvents>(socket: TestSocket, event: E) {
  const got: Parameters<ServerToClientEvents[E]>[0][] = [];
  socket.on(event, ((p: Parameters<ServerToClientEvents[E]>[0]) => got.push(p)) as never);
  return got;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The next payload of `event` that satisfies `pick`, or a rejection after `ms`. */
export function nextMatching<E extends keyof ServerToClientEvents>(
  socket: TestSocket,
  event: E,
  pick: (p: Parameters<ServerToClientEvents[E]>[0]) => boolean,
  ms = 3000,
): Promise<Parameters<ServerToClientEvents[E]>[0]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no matching ${event}`)), ms);
    const on = (p: Parameters<ServerToClientEvents[E]>[0]) => {
      if (!pick(p)) return;
      clearTimeout(timer);
      socket.off(event, on as never);
      resolve(p);
    };
    socket.on(event, on as never);
  });
}

/**
 * A socket test file's real server: started before its tests, stopped after them; every socket opened
 * with `connect` is closed after each test.
 */
export function liveServer() {
  let server: Awaited<ReturnType<typeof setupServer>> | undefined;
  const open: TestSocket[] = [];
  beforeAll(async () => {
    server = await setupServer();
  });
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => {
    await server?.close();
  });
  const running = () => {
    if (!server) throw new Error('liveServer: the server starts in beforeAll');
    return server;
  };
  return {
    get url() {
      return running().url;
    },
    /** The Socket.IO server, to look at rooms and sockets from the server's side. */
    get io() {
      return running().io;
    },
    api: () => running().api(),
    async connect(token: string): Promise<TestSocket> {
      const socket = await connectSocket(running().url, token);
      open.push(socket);
      return socket;
    },
    /** POST /api/tasks as `by` (a trailer of its own unless the body names one); a 201 or the test fails. */
    async createTask(by: TestUser, body: Record<string, unknown> = {}): Promise<Task> {
      const res = await running()
        .api()
        .post('/api/tasks')
        .set(by.auth)
        .send({
          title: 'Mover',
          origin: 'Muelle 1',
          destination: 'Campa',
          trailer_id: uniqueTrailer(),
          ...body,
        });
      if (res.status !== 201) throw new Error(`POST /api/tasks: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as Task;
    },
    /** PUT /api/tasks/{id} as `by`. */
    put: (id: string, body: object, by: TestUser) =>
      running().api().put(`/api/tasks/${id}`).set(by.auth).send(body),
  };
}

let trailers = 0;
const uniqueTrailer = () => `LS-${process.pid}-${++trailers}`;

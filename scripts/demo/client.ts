// The simulated people use the app the way its screens do: through the real HTTP API with a bearer
// token, and a Socket.IO connection that makes them count as online (CONTRACT §4).
import { io as ioClient, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@shared/events';
import type { AuthResponse } from '@shared/schemas';

export class DemoApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`${status} ${detail}`);
  }
}

export class DemoClient {
  private socket: Socket<ServerToClientEvents, ClientToServerEvents> | undefined;
  token = '';
  name = '';
  id = '';

  constructor(
    private readonly baseUrl: string,
    readonly email: string,
    private readonly password: string,
  ) {}

  async login(): Promise<void> {
    const res = await this.request<AuthResponse>('POST', '/auth/login', {
      email: this.email,
      password: this.password,
    });
    this.token = res.access_token ?? '';
    this.name = res.user.name;
    this.id = res.user.id;
  }

  /** Opens the socket a real screen keeps open (the user is online while it is connected). */
  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket: Socket<ServerToClientEvents, ClientToServerEvents> = ioClient(this.baseUrl, {
        auth: { token: this.token },
        transports: ['websocket'],
      });
      this.socket = socket;
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
  }

  close(): void {
    this.socket?.close();
    this.socket = undefined;
  }

  get<T>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', path, body);
  }

  /** A GET that answers null on 404 (GET /tasks/my-active when there is no active task). */
  async maybe<T>(path: string): Promise<T | null> {
    try {
      return await this.get<T>(path);
    } catch (err) {
      if (err instanceof DemoApiError && err.status === 404) return null;
      throw err;
    }
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.baseUrl}/api${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) {
      let detail = text;
      try {
        detail = (JSON.parse(text) as { detail?: string }).detail ?? text;
      } catch {
        /* not JSON */
      }
      throw new DemoApiError(res.status, detail);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

/** A refusal the simulation expects now and then (a race lost, a trailer taken meanwhile). */
export const isConflict = (err: unknown): boolean => err instanceof DemoApiError && err.status === 409;

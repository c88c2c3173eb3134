// The one HTTP client. Every call goes through `request`: base URL + '/api', the bearer token from
// local storage, JSON in and out, errors as ApiError with the server's Spanish `detail`, and SPEC §4:
// a 401/403 anywhere but the login screen ends the session (the route guards then show /login).
import { BALANCER_READ_RETRIES, retryAfterMs } from '@shared/constants';
import { clearStoredSession, getStoredToken } from './storage';
import { reportReachable } from './offline/reachability';

/** VITE_API_URL (build time) points the client at a server on another host; default same origin. */
export const API_ORIGIN = (import.meta.env.VITE_API_URL ?? '').replace(/\/+$/, '');
const API_BASE = `${API_ORIGIN}/api`;

/**
 * Requests that answer 401/403 as part of their normal use (wrong password, pending account; a
 * change-password token that was revoked meanwhile): they never end a session by themselves.
 */
const AUTH_ENTRY_PATHS = ['/auth/login', '/auth/register', '/auth/change-password'];
const LOGIN_PATH = '/login';

export class ApiError extends Error {
  /** HTTP status; 0 when the server could not be reached. */
  readonly status: number;
  /** The server's Spanish `detail`, or null (network failure, no JSON body). */
  readonly detail: string | null;
  /** True when this error ended the session: callers stay silent (SPEC §8 "401 is silent"). */
  readonly sessionEnded: boolean;

  constructor(status: number, detail: string | null, sessionEnded = false) {
    super(detail ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.sessionEnded = sessionEnded;
  }
}

let onSessionEnded: () => void = () => {};
/** The session store registers how to forget the user (keeps this module free of store imports). */
export function setSessionEndedHandler(handler: () => void): void {
  onSessionEnded = handler;
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  /**
   * The bearer token to send instead of the stored one: the token of a login answered
   * `password_change_required` (CONTRACT §14), which is never stored as the session's.
   */
  token?: string;
  /** Extra headers (the `Idempotency-Key` of a queued action, CONTRACT §16). */
  headers?: Record<string, string>;
  /** Gives up after this long as if the network were down (status 0): a link that does not answer. */
  timeoutMs?: number;
}

function url(path: string, query?: Query): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) qs.set(k, String(v));
  const s = qs.toString();
  return `${API_BASE}${path}${s ? `?${s}` : ''}`;
}

async function readDetail(res: Response): Promise<string | null> {
  try {
    const body: unknown = await res.json();
    if (body && typeof body === 'object' && 'detail' in body && typeof body.detail === 'string')
      return body.detail;
  } catch {
    /* not JSON */
  }
  return null;
}

async function send(
  method: string,
  path: string,
  body?: unknown,
  query?: Query,
  opts: RequestOptions = {},
  retriesLeft = BALANCER_READ_RETRIES,
): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  const token = opts.token ?? getStoredToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  // A FormData body (a photo) goes as multipart: the browser writes its Content-Type with the boundary.
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url(path, query), {
      method,
      headers,
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      signal: opts.timeoutMs ? AbortSignal.timeout(opts.timeoutMs) : undefined,
    });
  } catch {
    reportReachable(false);
    throw new ApiError(0, null);
  }
  reportReachable(true);
  if (res.ok) return res;
  // The balancer had no node ready for a moment (one lost, the other briefly busy taking its screens
  // over): a read, harmless to repeat, is asked again after the wait it names.
  const wait = method === 'GET' && res.status === 503 ? retryAfterMs(res.headers.get('Retry-After')) : null;
  if (wait !== null && retriesLeft > 0) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    return send(method, path, body, query, opts, retriesLeft - 1);
  }

  const detail = await readDetail(res);
  const endsSession =
    (res.status === 401 || res.status === 403) &&
    !AUTH_ENTRY_PATHS.includes(path) &&
    !window.location.pathname.startsWith(LOGIN_PATH) &&
    token !== null;
  if (endsSession) {
    clearStoredSession();
    onSessionEnded();
  }
  throw new ApiError(res.status, detail, endsSession);
}

async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  query?: Query,
  opts?: RequestOptions,
): Promise<T> {
  const res = await send(method, path, body, query, opts);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** `attachment; filename="a.xlsx"` or RFC 5987 `filename*=UTF-8''a.xlsx`. */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain ? plain[1].trim() : null;
}

/** Downloads a file answer (xlsx): the server's filename, else `fallbackName`. Returns the name used. */
async function download(path: string, fallbackName: string, query?: Query): Promise<string> {
  const res = await send('GET', path, undefined, query);
  const name = filenameFromDisposition(res.headers.get('Content-Disposition')) ?? fallbackName;
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Let the browser start the download before the object URL goes away.
  setTimeout(() => URL.revokeObjectURL(href), 1000);
  return name;
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', path, undefined, query),
  post: <T>(path: string, body?: unknown, query?: Query, opts?: RequestOptions) =>
    request<T>('POST', path, body, query, opts),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body),
  /** A DELETE may carry a JSON body (a punch correction's reason, CONTRACT §15). */
  del: <T>(path: string, body?: unknown) => request<T>('DELETE', path, body),
  /** POST of a multipart form (a gate photo, CONTRACT §19). */
  upload: <T>(path: string, form: FormData) => request<T>('POST', path, form),
  download,
};

/** The text an error toast shows: the server's detail, else the SPEC §8 fallback. */
export function errorText(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.detail ? err.detail : fallback;
}

// Business constants of SPEC §9 and CONTRACT (one definition, imported by server and client).
export const POLL_MS = {
  dashboard: 3000,
  swapTasks: 5000,
  activeTask: 5000,
  timeclockStatus: 60_000,
  driverAnalytics: 30_000,
  pendingUsers: 3000,
} as const;

export const CLOCK_TICK_MS = 1000;
export const TOAST_DURATION_MS = 4000;
export const TOAST_VISIBLE = 3;
export const CONGRATS_AUTO_READ_MS = 30_000;
export const MAX_NOTIFICATION_BANNERS = 3;
export const ONLINE_DRIVERS_SHOWN = 5;
export const RANKING_SHOWN = 10;
export const MEDAL_COUNT = 3;
export const LOGS_DEFAULT_LIMIT = 50;
export const LOGS_MAX_LIMIT = 500;
export const SHORT_ID_LENGTH = 8;
export const TIMEZONE = 'Europe/Madrid';
export const LOCALE = 'es-ES';

/** Worked hours at or above this are shown green, below yellow. */
export const FULL_SHIFT_HOURS = 8;
/** A delay strictly over this many minutes is an incident (reports). */
export const INCIDENT_THRESHOLD_MIN = 10;
/** Delay colouring: strictly over red → red, strictly over orange → orange, else yellow. */
export const DELAY_RED_MIN = 30;
export const DELAY_ORANGE_MIN = 20;

export const TOKEN_TTL_MS = 12 * 60 * 60 * 1000;
export const TOKEN_REFRESH_MS = 60 * 60 * 1000;
export const PRESENCE_WINDOW_MS = 90_000;
export const RETURN_COOLDOWN_MS = 30 * 60 * 1000;
/** An entrada older than this without salida makes the day's summary 'incomplete'. */
export const OPEN_SHIFT_MAX_MS = 16 * 60 * 60 * 1000;
export const TIMECLOCK_WINDOW_MS = 24 * 60 * 60 * 1000;
export const BOARD_FINISHED_WINDOW_MS = 24 * 60 * 60 * 1000;
export const STATS_COALESCE_MS = 250;
export const SEARCH_MAX_ROWS = 500;
export const AVG_COMPLETION_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

export const LOGIN_RATE_LIMIT = { windowMs: 15 * 60 * 1000, max: 10 } as const;
export const REGISTER_RATE_LIMIT = { windowMs: 60 * 60 * 1000, max: 200 } as const;
/**
 * Login work per IP whatever the email (CONTRACT §14): hashing at once, waiting, failures per window.
 * The contract allows up to 4 hashing at once; 2 leaves the other half of a 2-core box and of
 * bcrypt's 4 worker threads to everybody else.
 */
export const LOGIN_IP_LIMIT = { hashing: 2, waiting: 50, failures: 100, windowMs: 15 * 60 * 1000 } as const;
/** A session is open while it was refreshed within this long (the token's own life). */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;

export const TEXT_MAX = 120;
export const DESCRIPTION_MAX = 1000;
/** CONTRACT §21: a task's `external_ref`, another system's own reference for it. */
export const EXTERNAL_REF_MAX = 100;
/** CONTRACT §21: an API client's name. */
export const API_CLIENT_NAME_MAX = 100;
/** CONTRACT §21: `trc_` and 32 random bytes, base64url. */
export const API_KEY_PREFIX = 'trc_';
/** How much of a key the list shows to tell keys apart: `trc_` and 8 more characters. */
export const API_KEY_SHOWN_CHARS = 12;
/** CONTRACT §21: `last_used_at` is written at most this often. */
export const API_KEY_LAST_USED_STEP_MS = 60_000;
/** CONTRACT §21: the default of API_KEY_RATE_PER_MIN, requests a minute per key across nodes. */
export const API_KEY_RATE_PER_MIN_DEFAULT = 600;
export const PASSWORD_MIN = 8;
/** bcrypt reads at most 72 bytes: a longer password would be silently cut. */
export const PASSWORD_MAX_BYTES = 72;
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;
export const JSON_BODY_LIMIT = '100kb';
/** POST /admin/locations/import: a yard's whole catalogue as CSV text (CONTRACT §17). */
export const LOCATION_IMPORT_BODY_LIMIT = '1mb';

export const DEFAULT_TASK_TYPES = ['semiremolque'] as const;
export const BACKUPS_KEPT = 7;
export const BACKUP_MAX_AGE_MS = 26 * 60 * 60 * 1000;

/** The control room's exceptions (CONTRACT §15): what makes a task need a person. */
export const ATTENTION = {
  driverOfflineMs: 5 * 60 * 1000,
  inProgressMs: 30 * 60 * 1000,
  poolWaitMs: 10 * 60 * 1000,
} as const;

/** CONTRACT §20 "Escalation": when a task escalates to every staff user (shared/escalation.ts). */
export const ESCALATION = {
  /** `espera`: a pool task not held, waiting more than this since it entered the pool (Swap included). */
  waitMs: 20 * 60 * 1000,
  /** `plazo`: a pool task, held or not, whose deadline is less than this away. */
  dueWithinMs: 20 * 60 * 1000,
  /** The server evaluates the rules at least this often (server/services/jobs.ts)… */
  everyMs: 15_000,
  /** …and once after a burst of task commits, this long after the first of them (coalesced). */
  afterCommitMs: 250,
  /** Each staff user gets at most one escalation Web Push in this long, across nodes. */
  pushEveryMs: 60_000,
} as const;
/** The workload alert card shows a non-normal status, or hides on normal, once it is this old. */
export const ALERT_HYSTERESIS_MS = 60_000;
/** The wall screen turns a column's page every this long. */
export const WALL_PAGE_MS = 10_000;

/** The new-task vibration (ms on, off, on; two long buzzes felt in a pocket over a diesel engine): the open app's alert and the service worker's notification. */
export const ALERT_VIBRATION_MS = [400, 150, 400] as const;
/** The screen a tapped task notification opens (the driver's screen lives on the dashboard route). */
export const PUSH_OPEN_PATH = '/dashboard';
/**
 * CONTRACT §23: the browsers' push services, the only hosts a push endpoint may name (https, port 443;
 * the server adds PUSH_ALLOWED_HOSTS). `*.x` matches a name under x, never x itself.
 */
export const PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com', // Chrome, Edge, most Android browsers
  '*.push.services.mozilla.com', // Firefox
  '*.notify.windows.com', // Edge's older endpoints (WNS)
  'web.push.apple.com', // Safari, iOS home-screen apps
  '*.push.apple.com',
] as const;

/** CONTRACT §16 offline queue: a queued action's request that got no answer this long counts as offline. */
export const OFFLINE_REQUEST_TIMEOUT_MS = 8000;
/** How often the phone tries to send its queued actions again while some wait. */
export const OFFLINE_RETRY_MS = 5000;

/**
 * CONTRACT §23: how many Idempotency-Keys a principal may use in 24 h (a key counts once its request ran
 * its effect), by kind of principal: a user, or an API client (§21).
 */
export const IDEMPOTENCY_KEYS_PER_DAY = { user: 1_000, api: 100_000 } as const;

/**
 * A read answered 503 with Retry-After — the balancer in front of several nodes with none ready for a
 * moment (CONTRACT §18) — is asked again this many times after that wait (capped), before it fails.
 */
export const BALANCER_READ_RETRIES = 2;
/** The longest of those waits, whatever the header asks. */
const BALANCER_RETRY_MAX_MS = 5_000;

/** How long a Retry-After header (seconds) asks to wait, capped; null without a usable one. */
export function retryAfterMs(header: string | null): number | null {
  const seconds = header === null ? NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, BALANCER_RETRY_MAX_MS) : null;
}

/** CONTRACT §19/§24: a trailer's notes and damage note, and its reefer's setpoint (°C). */
export const TRAILER_NOTES_MAX = 1000;
export const REEFER_SETPOINT_C = { min: -40, max: 40 } as const;
/** GET /trailers?q=: at most this many records. */
export const TRAILER_SEARCH_MAX = 20;
/** GET /trailers/{id}: its last moves. */
export const TRAILER_MOVES_MAX = 20;
/** GET /trailers/{id}: its last gate visits. */
export const TRAILER_VISITS_MAX = 20;

/**
 * CONTRACT §19 waiting times (Spain's 1-hour rule for loading and unloading, RDL 3/2022): an open visit's
 * wait is amber past an hour and red past two.
 */
export const GATE_WAIT_AMBER_S = 60 * 60;
export const GATE_WAIT_RED_S = 2 * 60 * 60;
/** GET /gate/suggestions: at most this many places. */
export const GATE_SUGGESTIONS_MAX = 10;
/** POST /gate/exits: a trailer whose latest move ended at a `puerta` this recently is accepted as picked. */
export const GATE_PICKED_AT_GATE_MS = 12 * 60 * 60 * 1000;

/** CONTRACT §21 "Delivery": the webhooks' limits and retry schedule (server/services/webhooks/). */
export const WEBHOOK = {
  /** The longest URL kept. */
  urlMax: 2000,
  /** The whole exchange (connect, send, answer) of one attempt. */
  timeoutMs: 10_000,
  /** At most this much of an answer is read (kept for nothing but the attempt's end). */
  answerMaxBytes: 64 * 1024,
  /** The waits before the 2nd…10th attempts; after the 10th the delivery is `failed`. */
  retryDelaysMs: [5, 30, 120, 600, 1800, 3600, 7200, 14_400, 28_800].map((s) => s * 1000),
  /** An endpoint failing this long without a success is deactivated. */
  disableAfterMs: 24 * 3600_000,
  /** The pending deliveries of a deactivated endpoint are kept this long. */
  keepPendingMs: 7 * 24 * 3600_000,
  /** Delivered rows are removed after this long. */
  keepDeliveredMs: 30 * 24 * 3600_000,
  /** The deliveries GET /admin/webhooks/{id}/deliveries lists. */
  listedDeliveries: 100,
  /** A signing secret is this + base64 of its bytes (the Standard Webhooks form). */
  secretPrefix: 'whsec_',
} as const;

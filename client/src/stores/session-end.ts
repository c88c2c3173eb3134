// Stores that hold a user's data register here how to forget it; the session store calls them all
// when the session ends (logout, 401/403, revocation), so the next user never sees the last one's data.
// Each gets the id of the user whose session ended (to drop what was kept on the phone for them).
type Reset = (userId: string | null) => void;
const resets = new Set<Reset>();

export function onSessionEnd(reset: Reset): () => void {
  resets.add(reset);
  return () => resets.delete(reset);
}

export function resetSessionStores(userId: string | null): void {
  for (const reset of resets) reset(userId);
}

// Work that needs the session's token, done at a logout before it is forgotten (the phone's push
// subscription is deleted on the server). Each is bounded in time; a failure never blocks the logout.
type BeforeLogout = () => Promise<void>;
const beforeLogout = new Set<BeforeLogout>();
const BEFORE_LOGOUT_MAX_MS = 5_000;

export function onBeforeLogout(fn: BeforeLogout): () => void {
  beforeLogout.add(fn);
  return () => beforeLogout.delete(fn);
}

export async function runBeforeLogout(): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, BEFORE_LOGOUT_MAX_MS);
  });
  const all = Promise.all(
    [...beforeLogout].map((fn) =>
      Promise.resolve()
        .then(fn)
        .catch((err: unknown) => console.warn('Fallo antes de cerrar sesión', err)),
    ),
  );
  await Promise.race([all, timeout]);
  clearTimeout(timer);
}

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

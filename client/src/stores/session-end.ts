// Stores that hold a user's data register here how to forget it; the session store calls them all
// when the session ends (logout, 401/403, revocation), so the next user never sees the last one's data.
const resets = new Set<() => void>();

export function onSessionEnd(reset: () => void): () => void {
  resets.add(reset);
  return () => resets.delete(reset);
}

export function resetSessionStores(): void {
  for (const reset of resets) reset();
}

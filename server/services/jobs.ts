// Periodic work of the running server. Returns a function that stops it.
export function startBackgroundJobs(): () => void {
  const timers: NodeJS.Timeout[] = [];
  return () => timers.forEach(clearInterval);
}

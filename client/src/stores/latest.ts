// Answers of a store's requests can arrive out of order (a slow search, then a quick one): only the
// latest request's answer, failure and end count; a session's end forgets those in flight.

export interface LatestRequests {
  /** A new request; what it returns says whether that request is still the latest. */
  begin(): () => boolean;
  /** Every request in flight stops counting (the session ended, the form was cleared). */
  forget(): void;
}

export function latestRequests(): LatestRequests {
  let latest = 0;
  return {
    begin() {
      const ticket = ++latest;
      return () => ticket === latest;
    },
    forget() {
      latest++;
    },
  };
}

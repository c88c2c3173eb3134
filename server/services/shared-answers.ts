// Answers that many identical screens share (issue 17: the staff's boards; issue 18: the yard's map and
// list): computed and serialised once per version of what they show — on this node, for the open
// database — and revalidated by the browsers with ETag / If-None-Match (304 while nothing changed). The
// version is read from the database, so it is the same on every node.
import crypto from 'node:crypto';
import { databaseIdentity } from '../db';

export interface SharedAnswer {
  /** Absent for an answer that is not kept (its version was read while a writer ran). */
  etag?: string;
  /** The answer's JSON, computed once per version. */
  body: () => Promise<string>;
}

/** The answer kept per kind (one version each), per open database. */
const kept = new WeakMap<object, Map<string, { version: string; body: Promise<string>; at: number }>>();

/**
 * How long an answer is kept at most: the versions cannot see every race of writers on other nodes
 * (PostgreSQL commits in another order than it began; docs/SCALING.md), so whatever one of them missed
 * is in the answer of the next request after this.
 */
export const SHARED_ANSWER_MAX_AGE_MS = 5_000;

/**
 * Forgets the answers kept for the open database: a change this node committed is in the next answers
 * whatever the versions say (changes/processors/, after every commit that changes what they show).
 */
export function forgetSharedAnswers(): void {
  kept.get(databaseIdentity())?.clear();
}

/**
 * The shared answer of `kind` at `version`. Its body is computed after the version was read: a change
 * landing in between is in the answer, and the next request, seeing a newer version, computes again.
 * `version` null: read while a writer ran (db/dialect.ts WRITERS_QUIET), so it may not move when that
 * writer commits — the answer is computed for this request alone.
 */
export function sharedAnswer(
  kind: string,
  version: string | null,
  compute: () => Promise<unknown>,
): SharedAnswer {
  if (version === null) return { body: async () => JSON.stringify(await compute()) };
  const etag = `W/"${crypto.createHash('sha1').update(`${kind}:${version}`).digest('base64url')}"`;
  return {
    etag,
    body: () => {
      const database = databaseIdentity();
      let answers = kept.get(database);
      if (!answers) kept.set(database, (answers = new Map()));
      let answer = answers.get(kind);
      const now = performance.now();
      if (answer?.version !== version || now - answer.at > SHARED_ANSWER_MAX_AGE_MS) {
        const entry = { version, at: now, body: compute().then((value) => JSON.stringify(value)) };
        answers.set(kind, (answer = entry));
        const own = answers;
        void entry.body.catch(() => {
          if (own.get(kind) === entry) own.delete(kind);
        });
      }
      return answer.body;
    },
  };
}

// Answers that many identical screens share (issue 17: the staff's boards; issue 18: the yard's map and
// list): computed and serialised once per version of what they show — on this node, for the open
// database — and revalidated by the browsers with ETag / If-None-Match (304 while nothing changed). The
// version is read from the database, so it is the same on every node; the answer kept on a node is
// served only while nothing has committed since it was computed (db/change-mark.ts), whichever node
// committed it: the versions cannot see every race of writers on many nodes (PostgreSQL commits in
// another order than it began, the nodes' clocks differ), the change mark does (CONTRACT §23).
import crypto from 'node:crypto';
import { databaseIdentity } from '../db';
import { changeMark, unchangedSince, type ChangeMark } from '../db/change-mark';

export interface SharedAnswer {
  /** Absent for an answer that is not kept (its version was read while a writer ran). */
  etag?: string;
  /** The answer's JSON, computed once per version. */
  body: () => Promise<string>;
}

/** The answer kept per kind (one version each), per open database. */
const kept = new WeakMap<object, Map<string, { version: string; mark: ChangeMark; body: Promise<string> }>>();

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
    body: async () => {
      // Read before the body is computed; nothing awaits after it until the answer is kept, so the
      // screens asking together share it.
      const mark = await changeMark();
      const database = databaseIdentity();
      let answers = kept.get(database);
      if (!answers) kept.set(database, (answers = new Map()));
      let answer = answers.get(kind);
      if (answer?.version !== version || !unchangedSince(answer.mark, mark)) {
        const entry = { version, mark, body: compute().then((value) => JSON.stringify(value)) };
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

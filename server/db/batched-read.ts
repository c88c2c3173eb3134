// Reads by key that arrive together, answered by one statement. On PostgreSQL each statement is a round
// trip and a parse on the server, and requests come in bursts (the ten clients one creation batch answers
// send their next requests together): a burst authenticates in one read instead of ten. SQLite reads
// in-process, where one by one costs nothing more; a read inside a transaction stays on it.
import DataLoader from 'dataloader';
import { isPostgres } from './engine';
import { inTransaction } from '.';

/**
 * `readOne` wrapped so that, on PostgreSQL outside a transaction, the calls of one turn of the event loop
 * (everything that arrived in the same poll of the sockets) go to `readMany` together: its answers in the
 * order of its keys, undefined for a key with none.
 */
export function batchedRead<K, V>(
  readOne: (key: K) => Promise<V | undefined>,
  readMany: (keys: readonly K[]) => Promise<(V | undefined)[]>,
): (key: K) => Promise<V | undefined> {
  const loader = new DataLoader<K, V | undefined>(readMany, {
    // No memory between bursts: every request reads the database as it is now (a revoked session, a key).
    cache: false,
    // The whole turn, not only its microtasks: each request arrives in its own I/O callback.
    batchScheduleFn: (dispatch) => setImmediate(dispatch),
  });
  return (key) => (isPostgres && !inTransaction() ? loader.load(key) : readOne(key));
}

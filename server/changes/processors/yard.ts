// The yard processor (CONTRACT §17), before the commit: the trailers whose finished moves changed are
// settled where they now stand, and the places of every trailer a change touched join the places to tell
// (a trailer with a task opened or closed is booked to leave its place, or not any more).
import { refuseOverfull, settleTrailers } from '../../services/yard';
import { loadTrailers } from '../../services/trailers';
import type { ChangeSet } from '../change-set';

/**
 * The places of the trailers a change touched, from their records as they end: once the moves are settled
 * (settleMoves), nothing writes trailers any more. Those whose record changed are also what the sockets
 * push, read here in the same statement (readForSockets leaves them to this read, which runs beside it).
 */
export async function settleYard(changes: ChangeSet): Promise<void> {
  if (!changes.yardTrailers.size) return;
  for (const [key, trailer] of await loadTrailers([...changes.yardTrailers])) {
    if (trailer.location) changes.yardPlaces.add(trailer.location.id);
    if (changes.trailers.has(key)) changes.loadedTrailers.set(key, trailer);
  }
}

/**
 * The trailers whose finished moves changed, settled where they now stand. Also run before the engine's
 * round (which never finishes a move): on PostgreSQL the round's lock is then not held over these writes.
 */
export async function settleMoves(changes: ChangeSet): Promise<void> {
  if (!changes.settle.size) return;
  for (const id of await settleTrailers([...changes.settle], changes)) changes.yardPlaces.add(id);
  changes.settle.clear();
}

/** The last step before the commit: a place a change filled that now holds more than it can is refused. */
export async function refuseOverfullPlaces(changes: ChangeSet): Promise<void> {
  if (changes.roomChecks.size) await refuseOverfull([...changes.roomChecks]);
}

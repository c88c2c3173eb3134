// The changes one transaction made, typed (LAYOUT.md, revision 3: "one writer, one change log"). A
// command records what it changed here and does nothing else about it: the processors (./processors/)
// read the set — before the commit, inside the transaction, and after it — and do the pushes, the caches
// and the yard's bookkeeping. For now it records the tasks' changes, the yard places they touch and
// whether the figures moved; other kinds (users, trailers, sessions, notices) join as they move here.
import type { Task } from '@shared/schemas';
import type { TaskRow } from '../db/tables';
import { now } from '../clock';
import { placeOfRow, type TaskPlace } from '../tasks/visibility';

/** What the yard sees of a task (CONTRACT §17). */
export type YardFacts = Pick<TaskRow, 'trailerId' | 'status' | 'originLocationId' | 'destinationLocationId'>;

export interface TaskChange {
  kind: 'created' | 'updated' | 'deleted';
  /** Where it was before the transaction (its rooms then): a task that left a room is told to go. */
  before?: TaskPlace;
}

export class ChangeSet {
  /** The tasks changed, the first change of each deciding its kind and its "before". */
  readonly tasks = new Map<string, TaskChange>();
  /** The dashboard figures changed (counts per status, busy drivers, movements). */
  figures = false;
  /** Set when a task entered the pool or a driver was freed: the engine runs before the commit. */
  engine = false;
  /** CONTRACT §17: places whose occupancy may have moved, trailers whose position may have. */
  readonly yardPlaces = new Set<string>();
  readonly yardTrailers = new Set<string>();
  /** Trailers whose finished moves changed: their position is settled before the commit. */
  readonly settle = new Set<string>();
  /** The created and updated tasks as read at the end of the transaction (processors/sockets.ts). */
  readonly loaded = new Map<string, Task>();
  /** The created and updated tasks as they were pushed (answers reuse them). */
  readonly presented = new Map<string, Task>();
  /** One instant for the whole transaction: its rows, events and timestamps agree. */
  constructor(readonly at: Date = now()) {}

  created(id: string): void {
    this.tasks.set(id, { kind: 'created' });
    this.figures = true;
  }
  /** Call with the row as it was before the change (the first call of a transaction wins). */
  updated(before: TaskRow): void {
    if (!this.tasks.has(before.id))
      this.tasks.set(before.id, { kind: 'updated', before: placeOfRow(before) });
  }
  deleted(before: TaskRow): void {
    this.tasks.set(before.id, { kind: 'deleted', before: placeOfRow(before) });
    this.figures = true;
    this.yard(before, undefined);
  }

  /**
   * A task of the yard changed from `before` to `after` (either missing for a creation or a deletion):
   * the places it names and its trailer's place may show something else now; when a finished move
   * changed (completed, reopened, deleted, re-aimed), its trailer's position is settled before the commit.
   */
  yard(before: YardFacts | undefined, after: YardFacts | undefined): void {
    for (const t of [before, after]) {
      if (!t) continue;
      if (t.originLocationId) this.yardPlaces.add(t.originLocationId);
      if (t.destinationLocationId) this.yardPlaces.add(t.destinationLocationId);
      this.yardTrailers.add(t.trailerId);
      if (t.status === 'finalizada') this.settle.add(t.trailerId);
    }
  }

  /** Places whose occupancy or catalogue entry changed besides the tasks' own (a catalogue change). */
  yardPlacesChanged(ids: readonly string[]): void {
    for (const id of ids) this.yardPlaces.add(id);
  }

  /** The dashboard figures changed (counts per status, busy drivers, movements). */
  figuresChanged(): void {
    this.figures = true;
  }

  /** Takes over what a nested step (a savepoint) recorded, once that step has succeeded. */
  absorb(step: ChangeSet): void {
    for (const [id, change] of step.tasks) if (!this.tasks.has(id)) this.tasks.set(id, change);
    this.figures ||= step.figures;
    this.engine ||= step.engine;
    for (const id of step.yardPlaces) this.yardPlaces.add(id);
    for (const id of step.yardTrailers) this.yardTrailers.add(id);
    for (const id of step.settle) this.settle.add(id);
  }
}

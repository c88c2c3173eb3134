// POST /tasks: creations are written in batches (docs/TASKS.md, docs/PERFORMANCE.md).
import crypto from 'node:crypto';
import type { CreateTaskData, Task } from '@shared/schemas';
import { ERR } from '@shared/labels';
import { isRetryable } from '../../db';
import { and, desc, eq, isNull, type SQL } from 'drizzle-orm';
import { tasks } from '../../db/tables';
import type { Principal } from '../../principal';
import { loadTask, selectTasks, presentJoined } from '../../presenters/tasks';
import { openTaskSql } from '../visibility';
import { ensureRoom, placeTasks } from '../../services/yard';
import { currentKey, placeKey, withoutKey, type IdempotencyContext } from '../../services/idempotency';
import type { ChangeSet } from '../../changes/change-set';
import { savepoint } from '../../changes/commit';
import { asConflict, insertTasks } from '../apply';
import { change } from '../change';
import { holdForDamages } from './damage';
import { dueAtError } from '@shared/deadline';
import { nowMs } from '../../clock';
import { badRequest } from '../../http/errors';

interface Creation {
  input: CreateTaskData;
  actor: Principal;
  /** The request's Idempotency-Key: written under the creation's own savepoint (CONTRACT §16). */
  key: IdempotencyContext | undefined;
  resolve: (task: Task) => void;
  reject: (err: unknown) => void;
}
let creations: Creation[] = [];
/** The batches scheduled or being written (creationsWritten()). */
const batches = new Set<Promise<void>>();
/** The batch written last (or being written): the next one starts after it. */
let lastBatch: Promise<void> = Promise.resolve();
let nextBatchScheduled = false;

/**
 * POST /tasks. Creations are written in batches, one batch at a time: one transaction, each creation
 * under its own savepoint (a refused trailer refuses only its own request), with one engine round for
 * all of them. Creations arriving while a batch is being written gather into the next one, so under a
 * burst the commit, the round and their round trips (PostgreSQL) are paid once per batch, not per task.
 */
export function createTask(input: CreateTaskData, actor: Principal): Promise<Task> {
  // CONTRACT §20: a deadline in the past or too far ahead, by the server's clock, refuses only this one.
  const refused = input.due_at ? dueAtError(input.due_at, nowMs()) : null;
  if (refused) return Promise.reject(badRequest(refused));
  return new Promise((resolve, reject) => {
    creations.push({ input, actor, key: currentKey(), resolve, reject });
    if (nextBatchScheduled) return;
    nextBatchScheduled = true;
    // Arriving while a batch is written, it gathers with the others until that batch ends and starts
    // then, before the event loop takes new requests: the server reads and answers them while this batch
    // waits on the database. Arriving while none is, the rest of this turn of the event loop joins it.
    const gathering = batches.size > 0;
    const batch = lastBatch
      .then(() => (gathering ? undefined : new Promise<void>((turn) => setImmediate(turn))))
      .then(() => {
        nextBatchScheduled = false;
        return writeCreations();
      });
    lastBatch = batch;
    batches.add(batch);
    void batch.then(() => batches.delete(batch));
  });
}

/**
 * POST /tasks with CONTRACT §21's `external_ref`: the caller's open task with that reference is answered
 * unchanged (`created` false, a 200) before anything else is checked; a create that fails while a racing
 * one made that task (the unique partial index, or the trailer it took) answers it too.
 */
export async function createOrRepeat(
  input: CreateTaskData,
  caller: Principal,
): Promise<{ task: Task; created: boolean }> {
  const ref = input.external_ref;
  const repeated = ref ? await openTaskWithRef(caller, ref) : undefined;
  if (repeated) return { task: repeated, created: false };
  try {
    return { task: await createTask(input, caller), created: true };
  } catch (err) {
    const raced = ref ? await openTaskWithRef(caller, ref) : undefined;
    if (raced) return { task: raced, created: false };
    throw err;
  }
}

/** Whose references these are: the API client's, or the staff user's own (CONTRACT §21). */
const refOwner = (caller: Principal): SQL =>
  caller.clientId
    ? eq(tasks.createdByClientId, caller.clientId)
    : and(eq(tasks.createdBy, caller.id ?? ''), isNull(tasks.createdByClientId))!;

const openTaskWithRef = (caller: Principal, ref: string): Promise<Task | undefined> =>
  loadTask(and(refOwner(caller), eq(tasks.externalRef, ref), openTaskSql)!);

/** GET /tasks?external_ref=: the caller's tasks with it, any status or age (not deleted), newest first. */
export async function tasksWithRef(caller: Principal, ref: string): Promise<Task[]> {
  const rows = await selectTasks()
    .where(and(refOwner(caller), eq(tasks.externalRef, ref), isNull(tasks.deletedAt)))
    .orderBy(desc(tasks.createdAt), desc(tasks.id));
  return rows.map(presentJoined);
}

/** Resolves once every creation received so far is written (or refused): before the database closes. */
export async function creationsWritten(): Promise<void> {
  while (batches.size) await Promise.all(batches);
}

/** Writes the creations gathered so far; never rejects (each request gets its own outcome). */
async function writeCreations(): Promise<void> {
  const batch = creations;
  creations = [];
  const outcomes = new Map<Creation, { id: string } | { err: unknown }>();
  let done: ChangeSet;
  try {
    // The batch runs in the first request's async context: no key is placed for the whole batch, each
    // creation places its own under its savepoint (refused with it, kept with it).
    done = await withoutKey(() =>
      change(async (fx) => {
        // Outcomes of an attempt that is run again (PostgreSQL) are replaced by the next attempt's.
        outcomes.clear();
        if (batch.length > 1) {
          // The whole batch in three statements; a refusal among them (a busy trailer) undoes the
          // attempt, and each creation is then written on its own below to find whose it is.
          try {
            const ids = await savepoint(fx, (step) => insertMany(batch, step));
            batch.forEach((creation, i) => outcomes.set(creation, { id: ids[i]! }));
            return fx;
          } catch (err) {
            if (isRetryable(err)) throw err;
          }
        }
        for (const creation of batch) {
          try {
            outcomes.set(creation, { id: await savepoint(fx, (step) => insertOne(creation, step)) });
          } catch (err) {
            outcomes.set(creation, { err });
          }
        }
        return fx;
      }),
    );
  } catch (err) {
    for (const creation of batch) creation.reject(err);
    return;
  }
  const answer = () => {
    for (const creation of batch) {
      const outcome = outcomes.get(creation)!;
      // The engine may already have given it to a driver: answer with the task as it was pushed.
      if ('id' in outcome) creation.resolve(done.presented.get(outcome.id)!);
      else creation.reject(outcome.err);
    }
  };
  // Creations gathered meanwhile (their batch waited on the database, PostgreSQL): their batch starts first
  // and its first statements are on their way while these answers are written, at the next turn.
  if (creations.length) setImmediate(answer);
  else answer();
}

async function insertOne(creation: Creation, fx: ChangeSet): Promise<string> {
  await placeKey(creation.key);
  const [id] = await insertMany([creation], fx).catch((err: unknown) => {
    throw asConflict(err, creation.input.trailer_id, ERR.driverBusy);
  });
  return id!;
}

/**
 * New pool tasks placed in the catalogue, with room checked where they go (apply.ts writes them: three
 * statements whatever their number). Keys are placed by the caller (one creation) or here (a batch: each
 * with its own key).
 */
async function insertMany(batch: readonly Creation[], fx: ChangeSet): Promise<string[]> {
  if (batch.length > 1) for (const { key } of batch) await placeKey(key);
  const ids = batch.map(() => crypto.randomUUID());
  const places = await placeTasks(batch.map((c) => c.input));
  const wanted = new Map<string, number>();
  // A gate holds no trailer: never full, nothing to check.
  for (const { destination } of places)
    if (destination && destination.kind !== 'puerta')
      wanted.set(destination.id, (wanted.get(destination.id) ?? 0) + 1);
  await ensureRoom(wanted);
  const damaged = await insertTasks(
    batch.map(({ input, actor }, i) => ({
      actor,
      task: {
        id: ids[i]!,
        title: input.title,
        description: input.description,
        origin: input.origin,
        destination: input.destination,
        originLocationId: places[i]!.originLocationId,
        destinationLocationId: places[i]!.destinationLocationId,
        trailerId: input.trailer_id,
        loadStateAfter: input.load_state_after ?? null,
        dueAt: input.due_at ? new Date(input.due_at) : null,
        priority: input.priority,
        vehicleType: input.vehicle_type,
        createdBy: actor.id,
        createdByClientId: actor.clientId ?? null,
        externalRef: input.external_ref,
      },
    })),
    fx,
  );
  // CONTRACT §19: a task created for a damaged trailer is held for its damage (unless it heads to a taller).
  await holdForDamages(damaged, null, fx);
  return ids;
}

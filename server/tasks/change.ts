// One change to tasks: one transaction (changes/commit.ts) and, when it put a task in the pool or freed a
// driver (the table's `round`, transitions.ts), the engine's round inside it, before the commit.
import type { ChangeSet } from '../changes/change-set';
import { commit } from '../changes/commit';
import { assignmentRound } from './assignment';

export const change = <T>(work: (fx: ChangeSet) => Promise<T>): Promise<T> => commit(work, assignmentRound);

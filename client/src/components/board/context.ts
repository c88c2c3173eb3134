// What every card needs from its board without props drilling through memoised lists: who is looking
// (staff or driver mode) and the actions the card's buttons start. The value is stable for a board's
// life, so a push that changes one task re-renders that one card.
import { createContext, useContext } from 'react';
import { TASK_STATUSES, type Role, type TaskStatus } from '@shared/enums';
import type { Task } from '@shared/schemas';
import { can } from '../../permissions';

export type BoardMode = 'staff' | 'driver';
export type Density = 'normal' | 'compact';

/** The columns a board shows (SPEC §6): a gestor's has no Finalizada; a driver sees their finished tasks. */
export const boardColumns = (mode: BoardMode, role: Role): TaskStatus[] =>
  TASK_STATUSES.filter((s) => s !== 'finalizada' || mode === 'driver' || can(role, 'seeFinishedColumn'));

export interface BoardActions {
  edit: (task: Task) => void;
  remove: (task: Task) => void;
  /** Staff: choose (or change) the driver of a pool or in-process task. */
  assign: (task: Task) => void;
  /** Staff: 'Retener' a pool task (asks an optional reason) and 'Liberar' a held one (CONTRACT §15). */
  hold: (task: Task) => void;
  release: (task: Task) => void;
  /** Driver: 'Asignarme'. */
  claim: (task: Task) => void;
  /** Driver: 'Devolver'. */
  giveBack: (task: Task) => void;
}

export interface BoardContextValue {
  mode: BoardMode;
  userId: string;
  actions: BoardActions;
}

export const BoardContext = createContext<BoardContextValue | null>(null);

export function useBoard(): BoardContextValue {
  const value = useContext(BoardContext);
  if (!value) throw new Error('useBoard fuera de un tablero');
  return value;
}

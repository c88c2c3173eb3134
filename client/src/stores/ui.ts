// Which view the staff shell shows (SPEC §2: switched by header buttons, not routes) and the dialogs
// the header opens for views that own them.
import { create } from 'zustand';
import type { View } from '@shared/enums';
import type { CreateTaskInput } from '@shared/schemas';
import { onSessionEnd } from './session-end';

interface UiState {
  view: View;
  setView: (view: View) => void;
  /** The header's 'Nueva Tarea' opens the board's create-task dialog through this flag. */
  createTaskOpen: boolean;
  setCreateTaskOpen: (open: boolean) => void;
  /**
   * What the create-task dialog opens with (CONTRACT §17: a trailer dragged on the Patio map to another
   * slot opens it prefilled); null for an empty form.
   */
  createTaskDraft: TaskDraft | null;
  /** Opens the create-task dialog prefilled with `draft`. */
  openCreateTask: (draft: TaskDraft) => void;
  /** The admin's 'Aprobar Usuarios Pendientes' dialog (header button, or any view that links to it). */
  approvalOpen: boolean;
  setApprovalOpen: (open: boolean) => void;
}

/** The fields of a new task the create form opens with. */
export type TaskDraft = Partial<
  Pick<
    CreateTaskInput,
    'origin' | 'destination' | 'trailer_id' | 'origin_location_id' | 'destination_location_id'
  >
>;

const initial = {
  view: 'dashboard' as View,
  createTaskOpen: false,
  createTaskDraft: null as TaskDraft | null,
  approvalOpen: false,
};

export const useUi = create<UiState>((set) => ({
  ...initial,
  setView: (view) => set({ view }),
  // Closing (or opening empty from the header) forgets any draft.
  setCreateTaskOpen: (createTaskOpen) => set({ createTaskOpen, createTaskDraft: null }),
  openCreateTask: (draft) => set({ createTaskOpen: true, createTaskDraft: draft }),
  setApprovalOpen: (approvalOpen) => set({ approvalOpen }),
}));

onSessionEnd(() => useUi.setState(initial));

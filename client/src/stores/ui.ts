// Which view the staff shell shows (SPEC §2: switched by header buttons, not routes) and the dialogs
// the header opens for views that own them.
import { create } from 'zustand';
import type { View } from '@shared/enums';
import { onSessionEnd } from './session-end';

interface UiState {
  view: View;
  setView: (view: View) => void;
  /** The header's 'Nueva Tarea' opens the board's create-task dialog through this flag. */
  createTaskOpen: boolean;
  setCreateTaskOpen: (open: boolean) => void;
  /** The admin's 'Aprobar Usuarios Pendientes' dialog (header button, or any view that links to it). */
  approvalOpen: boolean;
  setApprovalOpen: (open: boolean) => void;
}

const initial = { view: 'dashboard' as View, createTaskOpen: false, approvalOpen: false };

export const useUi = create<UiState>((set) => ({
  ...initial,
  setView: (view) => set({ view }),
  setCreateTaskOpen: (createTaskOpen) => set({ createTaskOpen }),
  setApprovalOpen: (approvalOpen) => set({ approvalOpen }),
}));

onSessionEnd(() => useUi.setState(initial));

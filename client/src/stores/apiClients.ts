// Sistema → Integraciones › Claves de API (CONTRACT §21): the admin's list of keys, a new key (its secret
// kept here only until the dialog showing it closes), revocation.
import { create } from 'zustand';
import type { ApiScope } from '@shared/enums';
import type { ApiClient, ApiClientCreated } from '@shared/schemas';
import { api } from '../api';
import { onSessionEnd } from './session-end';

interface ApiClientsState {
  clients: ApiClient[] | null;
  failed: boolean;
  load: () => Promise<void>;
  /** Resolves with the created key (shown once); the list is read again. */
  create: (name: string, scopes: ApiScope[]) => Promise<ApiClientCreated>;
  revoke: (id: string) => Promise<void>;
}

const initial = { clients: null, failed: false };

export const useApiClients = create<ApiClientsState>((set, get) => ({
  ...initial,
  load: async () => {
    try {
      set({ clients: await api.get<ApiClient[]>('/admin/api-clients'), failed: false });
    } catch {
      set({ failed: true });
    }
  },
  create: async (name, scopes) => {
    const created = await api.post<ApiClientCreated>('/admin/api-clients', { name, scopes });
    await get().load();
    return created;
  },
  revoke: async (id) => {
    await api.del(`/admin/api-clients/${id}`);
    await get().load();
  },
}));

onSessionEnd(() => useApiClients.setState(initial));

// The stored session (SPEC §7: token and user in local storage) and other remembered preferences.
import type { SessionUser } from '@shared/schemas';

const TOKEN_KEY = 'torre.token';
const USER_KEY = 'torre.user';

export const getStoredToken = (): string | null => localStorage.getItem(TOKEN_KEY);

export function getStoredUser(): SessionUser | null {
  const raw = localStorage.getItem(USER_KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as SessionUser;
  } catch {
    return null;
  }
}

export function storeSession(token: string, user: SessionUser): void {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(USER_KEY, JSON.stringify(user));
}

export const storeToken = (token: string): void => localStorage.setItem(TOKEN_KEY, token);

export function clearStoredSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
}

/** A boolean preference kept across reloads (e.g. the mute switch). */
export const prefs = {
  get: (key: string, fallback: boolean): boolean => {
    const v = localStorage.getItem(`torre.pref.${key}`);
    return v === null ? fallback : v === '1';
  },
  set: (key: string, value: boolean): void => localStorage.setItem(`torre.pref.${key}`, value ? '1' : '0'),
};

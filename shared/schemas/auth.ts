import { z } from 'zod';
import { ROLES } from '../enums';
import { EMAIL_MAX, NAME_MAX, PASSWORD_MAX_BYTES, PASSWORD_MIN } from '../constants';
import { cleanText, hasControlChars } from '../text';

/** Emails decide identity: NFKC, invisible characters stripped, trimmed and lower-cased (CONTRACT §4, §14). */
export const email = z
  .string({ error: 'El email es obligatorio' })
  .transform((s) => cleanText(s).normalize('NFKC').toLowerCase())
  .pipe(
    z
      .string()
      .min(1, 'El email es obligatorio')
      .max(EMAIL_MAX)
      .pipe(z.email('El email no tiene un formato válido')),
  );

export const PASSWORD_LENGTH_MSG = `La contraseña debe tener entre ${PASSWORD_MIN} y ${PASSWORD_MAX_BYTES} caracteres`;
export const PASSWORD_CONTROL_MSG = 'La contraseña no puede contener caracteres de control';

const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

/** A new password (CONTRACT §14): 8 to 72 bytes of UTF-8 (bcrypt ignores the rest), not only spaces, no control characters. */
export const newPassword = z
  .string({ error: 'La contraseña es obligatoria' })
  .refine((p) => p.length >= PASSWORD_MIN && utf8Bytes(p) <= PASSWORD_MAX_BYTES, PASSWORD_LENGTH_MSG)
  .refine((p) => p.trim().length > 0, PASSWORD_LENGTH_MSG)
  .refine((p) => !hasControlChars(p), PASSWORD_CONTROL_MSG);

/** A person's name: NFC, invisible characters stripped, trimmed. */
export const personName = z
  .string({ error: 'El nombre es obligatorio' })
  .transform(cleanText)
  .pipe(z.string().min(1, 'El nombre es obligatorio').max(NAME_MAX));

export const loginSchema = z.object({
  email,
  password: z
    .string({ error: 'La contraseña es obligatoria' })
    .min(1, 'La contraseña es obligatoria')
    .max(200),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z.object({
  email,
  password: newPassword,
  name: personName,
  role: z.enum(ROLES, { error: 'Rol no válido' }).default('conductor'),
});
export type RegisterInput = z.infer<typeof registerSchema>;

export const changePasswordSchema = z.object({
  current_password: z
    .string({ error: 'La contraseña actual es obligatoria' })
    .min(1, 'La contraseña actual es obligatoria')
    .max(200),
  new_password: newPassword,
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: (typeof ROLES)[number];
}

/**
 * `password_change_required`: an admin reset the password; the token only allows
 * `POST /auth/change-password` (every other endpoint answers 403 `Debes cambiar tu contraseña`).
 */
export interface AuthResponse {
  status: 'approved' | 'pending_approval' | 'password_change_required';
  access_token: string | null;
  user: SessionUser;
}

/** One open login session of a user (CONTRACT §14): `GET /admin/users/{id}/sessions`. */
export interface SessionInfo {
  id: string;
  created_at: string;
  last_refreshed_at: string;
  ip: string | null;
  user_agent: string | null;
  /** The session of the admin asking (ending it logs them out). */
  current: boolean;
}

import { z } from 'zod';
import { ROLES } from '../enums';
import { EMAIL_MAX, NAME_MAX, PASSWORD_MIN } from '../constants';

const email = z
  .string({ error: 'El email es obligatorio' })
  .trim()
  .toLowerCase()
  .min(1, 'El email es obligatorio')
  .max(EMAIL_MAX)
  .pipe(z.email('El email no tiene un formato válido'));

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
  password: z
    .string({ error: 'La contraseña es obligatoria' })
    .min(PASSWORD_MIN, `La contraseña debe tener al menos ${PASSWORD_MIN} caracteres`)
    .max(200),
  name: z
    .string({ error: 'El nombre es obligatorio' })
    .trim()
    .min(1, 'El nombre es obligatorio')
    .max(NAME_MAX),
  role: z.enum(ROLES, { error: 'Rol no válido' }).default('conductor'),
});
export type RegisterInput = z.infer<typeof registerSchema>;

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: (typeof ROLES)[number];
}

export interface AuthResponse {
  status: 'approved' | 'pending_approval';
  access_token: string | null;
  user: SessionUser;
}

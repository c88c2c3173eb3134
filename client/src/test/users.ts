// The account the Usuarios tests act on: Luis, an approved driver; tests change only what they check.
import type { AdminUser } from '@shared/schemas';

export const LUIS: AdminUser = {
  id: 'bbbbbbbb-0000-4000-8000-000000000002',
  name: 'Luis Gómez',
  email: 'luis@patio.es',
  role: 'conductor',
  is_approved: true,
  is_online: true,
  movements_count: 7,
  task_types: ['semiremolque'],
  created_at: '2026-11-20T08:00:00.000Z',
};

export const adminUser = (overrides: Partial<AdminUser> = {}): AdminUser => ({ ...LUIS, ...overrides });

// The first admin (CONTRACT §2): from ADMIN_EMAIL/ADMIN_PASSWORD, else a generated password printed once.
// Both were checked at start-up (checkConfig) against the rules a registration must pass.
import crypto from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { email as emailSchema } from '@shared/schemas/auth';
import { db } from '../db';
import { users } from '../db/schema';
import { now } from '../clock';
import { hashPassword } from './passwords';
import { logActivity } from './activity';

export async function ensureFirstAdmin(
  email: string | undefined,
  password: string | undefined,
  print: (line: string) => void = console.log,
): Promise<void> {
  const existing = db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), isNull(users.deletedAt)))
    .get();
  if (existing) return;
  // The same normalised key a registration or a login would use (NFKC, lower case, trimmed).
  const adminEmail = emailSchema.parse(email ?? 'admin@torre.local');
  const adminPassword = password ?? crypto.randomBytes(9).toString('base64url');
  const at = now();
  db.insert(users)
    .values({
      id: crypto.randomUUID(),
      email: adminEmail,
      name: 'Administrador',
      passwordHash: await hashPassword(adminPassword),
      role: 'admin',
      isApproved: true,
      taskTypes: [],
      createdAt: at,
      approvedAt: at,
    })
    .run();
  logActivity(
    'system',
    null,
    'Crear administrador inicial',
    `Se creó el administrador inicial ${adminEmail}`,
  );
  if (!password) {
    print('================================================================');
    print(' Primer administrador creado');
    print(`   email:      ${adminEmail}`);
    print(`   contraseña: ${adminPassword}`);
    print(' Guárdala: no se volverá a mostrar.');
    print('================================================================');
  } else {
    print(`Primer administrador creado: ${adminEmail}`);
  }
}

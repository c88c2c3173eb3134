// The first admin (CONTRACT §2): from ADMIN_EMAIL/ADMIN_PASSWORD, else a generated password printed once.
// Both were checked at start-up (checkConfig) against the rules a registration must pass.
import crypto from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { email as emailSchema } from '@shared/schemas/auth';
import { db, tx } from '../db';
import { DECISION_LOCK, lockDecision } from '../db/dialect';
import { users } from '../db/tables';
import { now } from '../clock';
import { hashPassword } from './passwords';
import { logActivity } from './activity';

const existingAdmin = async (): Promise<boolean> => {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), isNull(users.deletedAt)))
    .limit(1);
  return !!row;
};

export async function ensureFirstAdmin(
  email: string | undefined,
  password: string | undefined,
  print: (line: string) => void = console.log,
): Promise<void> {
  if (await existingAdmin()) return;
  // The same normalised key a registration or a login would use (NFKC, lower case, trimmed).
  const adminEmail = emailSchema.parse(email ?? 'admin@torre.local');
  const adminPassword = password ?? crypto.randomBytes(9).toString('base64url');
  // Hashed before the transaction: bcrypt would hold the writer for its whole run.
  const passwordHash = await hashPassword(adminPassword);
  const created = await tx(async () => {
    // Several nodes starting together: one seeds the admin, the others find it (PostgreSQL).
    await lockDecision(DECISION_LOCK.admins);
    if (await existingAdmin()) return false;
    const at = now();
    await db.insert(users).values({
      id: crypto.randomUUID(),
      email: adminEmail,
      name: 'Administrador',
      passwordHash,
      role: 'admin',
      isApproved: true,
      taskTypes: [],
      createdAt: at,
      approvedAt: at,
    });
    await logActivity(
      'system',
      null,
      'Crear administrador inicial',
      `Se creó el administrador inicial ${adminEmail}`,
    );
    return true;
  });
  if (!created) return;
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

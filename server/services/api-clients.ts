// CONTRACT §21 "API clients": keys made by the admin, kept as a SHA-256 hash, looked up on every request
// (a revocation takes effect at once on every node), `last_used_at` written at most once a minute.
import crypto from 'node:crypto';
import { and, desc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import type { ApiClient, ApiClientCreated } from '@shared/schemas';
import type { ApiScope } from '@shared/enums';
import { API_KEY_LAST_USED_STEP_MS, API_KEY_PREFIX, API_KEY_SHOWN_CHARS } from '@shared/constants';
import { API_CLIENT_ERR, API_CLIENT_LOG } from '@shared/labels';
import { placeKey } from '@shared/text';
import { db, tx } from '../db';
import { uniqueViolation } from '../db/dialect';
import { batchedRead } from '../db/batched-read';
import { apiClients } from '../db/tables';
import { now } from '../clock';
import { conflict, notFound } from '../http/errors';
import { logActivity, type Actor } from './activity';
import { withoutKey } from './idempotency';

const hashKey = (key: string): string => crypto.createHash('sha256').update(key).digest('hex');

/** A key looks like one of ours: what the Bearer header carries instead of a session token. */
export const isApiKey = (bearer: string): boolean => bearer.startsWith(API_KEY_PREFIX);

/** POST /admin/api-clients: the key is in this answer only. */
export async function createApiClient(
  input: { name: string; scopes: ApiScope[] },
  actor: Actor,
): Promise<ApiClientCreated> {
  const key = API_KEY_PREFIX + crypto.randomBytes(32).toString('base64url');
  const row = {
    id: crypto.randomUUID(),
    name: input.name,
    nameKey: placeKey(input.name),
    keyHash: hashKey(key),
    keyPrefix: key.slice(0, API_KEY_SHOWN_CHARS),
    scopes: input.scopes,
    createdBy: actor.id,
    createdByName: actor.name,
    createdAt: now(),
  };
  try {
    await tx(async () => {
      await db.insert(apiClients).values(row);
      await logActivity(
        'integration',
        actor,
        API_CLIENT_LOG.created,
        API_CLIENT_LOG.details(row.name, row.scopes),
      );
    });
  } catch (err) {
    if (uniqueViolation(err)?.startsWith('api_clients.name_key'))
      throw conflict(API_CLIENT_ERR.duplicateName);
    throw err;
  }
  return { id: row.id, name: row.name, scopes: row.scopes, key, created_at: row.createdAt.toISOString() };
}

/** GET /admin/api-clients: newest first, never the key. */
export async function listApiClients(): Promise<ApiClient[]> {
  const rows = await db
    .select()
    .from(apiClients)
    .where(isNull(apiClients.revokedAt))
    .orderBy(desc(apiClients.createdAt), apiClients.name);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    key_prefix: r.keyPrefix,
    scopes: r.scopes,
    created_by_name: r.createdByName,
    created_at: r.createdAt.toISOString(),
    last_used_at: r.lastUsedAt?.toISOString() ?? null,
  }));
}

/**
 * DELETE /admin/api-clients/{id}: marked revoked, so the next request with the key finds nothing on any node;
 * the row stays for its tasks, which keep saying `API · {name}`, and its name is free again.
 */
export async function revokeApiClient(id: string, actor: Actor): Promise<void> {
  await tx(async () => {
    const [gone] = await db
      .update(apiClients)
      .set({ revokedAt: now() })
      .where(and(eq(apiClients.id, id), isNull(apiClients.revokedAt)))
      .returning();
    if (!gone) throw notFound(API_CLIENT_ERR.notFound);
    await logActivity(
      'integration',
      actor,
      API_CLIENT_LOG.revoked,
      API_CLIENT_LOG.details(gone.name, gone.scopes),
    );
  });
}

type ApiClientRow = typeof apiClients.$inferSelect;

const liveClients = (hashes: string[]) =>
  db
    .select()
    .from(apiClients)
    .where(and(inArray(apiClients.keyHash, hashes), isNull(apiClients.revokedAt)));

/** A burst of keyed requests reads its keys in one statement (PostgreSQL: db/batched-read.ts). */
const clientOfHash = batchedRead<string, ApiClientRow>(
  async (hash) => (await liveClients([hash]).limit(1))[0],
  async (hashes) => {
    const found = new Map((await liveClients([...hashes])).map((c) => [c.keyHash, c]));
    return hashes.map((hash) => found.get(hash));
  },
);

/** The client of a key, read from the database on every request; undefined for an unknown or revoked key. */
export async function clientOfKey(key: string): Promise<ApiClientRow | undefined> {
  const client = await clientOfHash(hashKey(key));
  if (!client) return undefined;
  const at = now();
  if (!client.lastUsedAt || at.getTime() - client.lastUsedAt.getTime() >= API_KEY_LAST_USED_STEP_MS)
    await markUsed(client.id, at);
  return client;
}

/** One statement decides, so requests arriving together on many nodes write it once a minute. */
const markUsed = (id: string, at: Date) =>
  withoutKey(() =>
    tx(() =>
      db
        .update(apiClients)
        .set({ lastUsedAt: at })
        .where(
          and(
            eq(apiClients.id, id),
            or(
              isNull(apiClients.lastUsedAt),
              lte(apiClients.lastUsedAt, new Date(at.getTime() - API_KEY_LAST_USED_STEP_MS)),
            ),
          ),
        ),
    ),
  );

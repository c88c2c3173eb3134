// The gate's photos (CONTRACT §19 "Photos"): an upload is refused unless its bytes are a JPEG, PNG or
// WebP of at most 50 megapixels (read from its header, before any decoding), then decoded — at most
// PHOTO_DECODES.active at a time on this node, PHOTO_DECODES.waiting waiting, else 503 —, turned upright
// by its EXIF orientation and re-encoded to a JPEG (longest side 1600, quality 80) that carries no
// metadata at all (no EXIF, no GPS: sharp writes none unless asked). The JPEG is kept in the database
// (gate_photos) so every node serves it. An entry claims its photos in its own transaction
// (claimPhotos); the sweep deletes unattached photos after 24 h and attached ones after 365 days.
import crypto from 'node:crypto';
import sharp from 'sharp';
import { and, eq, inArray, isNull, isNotNull, lt, or } from 'drizzle-orm';
import { GATE_PHOTO_ERR } from '@shared/labels';
import {
  PHOTO_ATTACHED_TTL_MS,
  PHOTO_DECODES,
  PHOTO_JPEG_QUALITY,
  PHOTO_LONG_SIDE,
  PHOTO_MAX_PIXELS,
  PHOTO_UNATTACHED_TTL_MS,
} from '@shared/schemas';
import { db, tx } from '../db';
import { gatePhotos } from '../db/tables';
import { now, nowMs } from '../clock';
import { HttpError, badRequest, notFound } from '../http/errors';
import { ConcurrencyGate } from '../http/rate-limit';
import { logger } from '../logger';
import type { Principal } from '../principal';
import { withoutKey } from './idempotency';

// Every photo is new: libvips' operation cache would only hold memory.
sharp.cache(false);

export type PhotoFormat = 'jpeg' | 'png' | 'webp';

/** The format its first bytes say (magic numbers), whatever the upload declared; undefined for others. */
export function sniffImage(bytes: Buffer): PhotoFormat | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_MAGIC)) return 'png';
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  )
    return 'webp';
  return undefined;
}
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The decodes of this node: 2 at a time, 10 waiting, then 503 (CONTRACT §19). */
export const photoDecodes = new ConcurrencyGate(
  PHOTO_DECODES.active,
  PHOTO_DECODES.waiting,
  () => new HttpError(503, GATE_PHOTO_ERR.busy),
);

export interface EncodedPhoto {
  bytes: Buffer;
  width: number;
  height: number;
}

/** An upload's bytes → the JPEG kept, or the refusal of CONTRACT §19 (400 with its text, 503 when busy). */
export async function encodePhoto(upload: Buffer): Promise<EncodedPhoto> {
  const format = sniffImage(upload);
  if (!format) throw badRequest(GATE_PHOTO_ERR.notImage);
  // The header only: how large the image is, before a pixel is decoded.
  const meta = await sharp(upload, { limitInputPixels: false })
    .metadata()
    .catch(() => {
      throw badRequest(GATE_PHOTO_ERR.notImage);
    });
  if (meta.format !== format || !meta.width || !meta.height) throw badRequest(GATE_PHOTO_ERR.notImage);
  if (meta.width * meta.height > PHOTO_MAX_PIXELS) throw badRequest(GATE_PHOTO_ERR.tooManyPixels);
  return photoDecodes.run('decode', async () => {
    try {
      const { data, info } = await sharp(upload, { limitInputPixels: PHOTO_MAX_PIXELS })
        .rotate()
        .resize({
          width: PHOTO_LONG_SIDE,
          height: PHOTO_LONG_SIDE,
          fit: 'inside',
          withoutEnlargement: true,
        })
        .jpeg({ quality: PHOTO_JPEG_QUALITY })
        .toBuffer({ resolveWithObject: true });
      return { bytes: data, width: info.width, height: info.height };
    } catch (err) {
      // A header that promised an image over broken pixel data.
      logger.debug({ err }, 'foto que no se puede decodificar');
      throw badRequest(GATE_PHOTO_ERR.notImage);
    }
  });
}

/** Who owns a photo (only its owner may attach it): the user who uploaded it, or the API client whose key did. */
export type PhotoOwner = Pick<Principal, 'id' | 'clientId'>;

/** The owner's columns: exactly one is set (the table's check). A principal without a client is a user. */
const ownerColumns = (owner: PhotoOwner) =>
  owner.clientId === undefined
    ? { ownerId: owner.id!, ownerClientId: null }
    : { ownerId: null, ownerClientId: owner.clientId };

/** The photos of an owner. */
function ownedBy(owner: PhotoOwner) {
  const columns = ownerColumns(owner);
  return columns.ownerClientId === null
    ? eq(gatePhotos.ownerId, columns.ownerId)
    : eq(gatePhotos.ownerClientId, columns.ownerClientId);
}

/** POST /gate/photos: the photo re-encoded and kept, unattached, for its owner; its id. */
export async function storePhoto(owner: PhotoOwner, upload: Buffer): Promise<string> {
  const photo = await encodePhoto(upload);
  const id = crypto.randomUUID();
  await tx(() =>
    db.insert(gatePhotos).values({
      id,
      ...ownerColumns(owner),
      bytes: photo.bytes,
      width: photo.width,
      height: photo.height,
      size: photo.bytes.length,
      createdAt: now(),
    }),
  );
  return id;
}

/** GET /gate/photos/{id}: the stored JPEG; unknown → 404. */
export async function readPhoto(id: string): Promise<Buffer> {
  const [row] = await db.select({ bytes: gatePhotos.bytes }).from(gatePhotos).where(eq(gatePhotos.id, id));
  if (!row) throw notFound(GATE_PHOTO_ERR.notFound);
  return row.bytes;
}

/**
 * Within the caller's transaction (a gate entry): the photos become attached (to `attachedTo`, the
 * visit, when given). Each must be the owner's own (a key's client attaches only what its keys uploaded,
 * a user only theirs) and still unattached, else 400 `Foto no válida` and nothing is attached (the
 * caller's transaction rolls back). One statement decides, so two entries naming the same photo cannot
 * both take it (PostgreSQL re-checks `attached_at` after the row lock).
 */
export async function claimPhotos(
  owner: PhotoOwner,
  photoIds: readonly string[],
  attachedTo: string | null = null,
): Promise<void> {
  const ids = [...new Set(photoIds)];
  if (ids.length === 0) return;
  const claimed = await db
    .update(gatePhotos)
    .set({ attachedAt: now(), attachedTo })
    .where(and(inArray(gatePhotos.id, ids), ownedBy(owner), isNull(gatePhotos.attachedAt)))
    .returning({ id: gatePhotos.id });
  if (claimed.length !== ids.length) throw badRequest(GATE_PHOTO_ERR.invalid);
}

/** Deletes unattached photos older than 24 h and attached ones attached over 365 days ago; how many. */
export async function sweepPhotos(): Promise<number> {
  const at = nowMs();
  const gone = await withoutKey(() =>
    tx(() =>
      db
        .delete(gatePhotos)
        .where(
          or(
            and(
              isNull(gatePhotos.attachedAt),
              lt(gatePhotos.createdAt, new Date(at - PHOTO_UNATTACHED_TTL_MS)),
            ),
            and(
              isNotNull(gatePhotos.attachedAt),
              lt(gatePhotos.attachedAt, new Date(at - PHOTO_ATTACHED_TTL_MS)),
            ),
          ),
        )
        .returning({ id: gatePhotos.id }),
    ),
  );
  return gone.length;
}

// The gate's photos (CONTRACT §19 "Photos", §24): POST /gate/photos (staff and conductors, multipart
// `photo`, JPEG/PNG/WebP by their bytes, every refusal with its text), the stored JPEG (upright, no
// metadata, longest side 1600), GET /gate/photos/{id} for staff, the decode limit, claimPhotos() for a
// gate entry and the clean-up of old photos. Test images are made with sharp here.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { GATE_PHOTO_ERR } from '@shared/labels';
import { PHOTO_MAX_BYTES } from '@shared/schemas';
import { configure } from '../../server/config';
import { gatePhotos, idempotencyKeys } from '../../server/db/tables';
import { HttpError } from '../../server/http/errors';
import { claimPhotos, photoDecodes, sweepPhotos } from '../../server/services/gate-photos';
import { BACKUP_FIRST_CHECK_MS, PHOTO_SWEEP_EVERY_MS, startBackgroundJobs } from '../../server/services/jobs';
import { advanceClock, db, makeUser, now, setupApp, tx, type TestUser } from '../helpers/context';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let app: Awaited<ReturnType<typeof setupApp>>['app'];
let gestor: TestUser;
let driver: TestUser;
beforeEach(async () => {
  ({ api, app } = await setupApp());
  gestor = await makeUser('gestor');
  driver = await makeUser('conductor');
});

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** A width×height image, red on its left half and blue on its right. */
const twoColours = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: 'red' } }).composite([
    {
      input: {
        create: { width: Math.ceil(width / 2), height, channels: 3, background: 'blue' },
      },
      left: Math.floor(width / 2),
      top: 0,
    },
  ]);
const jpeg = async (width = 400, height = 300) => twoColours(width, height).jpeg().toBuffer();

/** Whether EXIF data carries the GPS IFD's pointer (tag 0x8825, in the TIFF header's byte order). */
function hasGpsPointer(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  const little = exif.includes('II*');
  return exif.includes(Buffer.from(little ? [0x25, 0x88] : [0x88, 0x25]));
}

const upload = (
  who: TestUser | undefined,
  bytes: Buffer,
  filename = 'foto.jpg',
  contentType = 'image/jpeg',
) => {
  const req = api().post('/api/gate/photos');
  if (who) void req.set(who.auth);
  return req.attach('photo', bytes, { filename, contentType });
};

/** Uploads as `who` and answers the stored photo's row. */
async function uploaded(who: TestUser, bytes: Buffer, filename?: string) {
  const res = await upload(who, bytes, filename).expect(201);
  expect(Object.keys(res.body)).toEqual(['id']);
  const [row] = await db
    .select()
    .from(gatePhotos)
    .where(eq(gatePhotos.id, res.body.id as string));
  return row!;
}

describe('POST /gate/photos', () => {
  it('keeps a JPEG turned upright by its EXIF orientation, without EXIF or GPS', async () => {
    // Stored sideways (orientation 6: turn 90° clockwise to see it), with a GPS position and a copyright.
    const sideways = await twoColours(400, 200)
      .jpeg()
      .keepExif()
      .withMetadata({ orientation: 6 })
      .withExifMerge({
        IFD0: { Copyright: 'MARCA-EXIF' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 25/1 0/1' },
      })
      .toBuffer();
    const before = await sharp(sideways).metadata();
    expect([before.width, before.height, before.orientation]).toEqual([400, 200, 6]);
    expect(before.exif?.includes('MARCA-EXIF')).toBe(true);
    expect(hasGpsPointer(before.exif)).toBe(true);

    const row = await uploaded(driver, sideways);
    const res = await api().get(`/api/gate/photos/${row.id}`).set(gestor.auth).expect(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    const body = res.body as Buffer;
    expect(body.equals(row.bytes)).toBe(true);
    const after = await sharp(body).metadata();
    expect([after.format, after.width, after.height]).toEqual(['jpeg', 200, 400]);
    expect(after.exif).toBeUndefined();
    expect(hasGpsPointer(body)).toBe(false);
    expect(after.orientation).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(body.includes('MARCA-EXIF')).toBe(false);
    // Upright: the left half (red) is now on top, the right half (blue) at the bottom.
    const { data } = await sharp(body).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * 200 + x) * 3, (y * 200 + x) * 3 + 3)];
    expect(pixel(100, 50)[0]).toBeGreaterThan(200);
    expect(pixel(100, 50)[2]).toBeLessThan(60);
    expect(pixel(100, 350)[2]).toBeGreaterThan(200);
    expect(pixel(100, 350)[0]).toBeLessThan(60);
    expect(row).toMatchObject({ ownerId: driver.user.id, width: 200, height: 400, size: body.length });
    expect(row.attachedAt).toBeNull();
  });

  it('re-encodes PNG and WebP to JPEG, the longest side at most 1600', async () => {
    const png = await twoColours(3200, 2400).png().toBuffer();
    const pngRow = await uploaded(gestor, png, 'foto.png');
    expect([pngRow.width, pngRow.height]).toEqual([1600, 1200]);
    const webp = await twoColours(1000, 2000).webp().toBuffer();
    const webpRow = await uploaded(gestor, webp, 'foto.webp');
    expect([webpRow.width, webpRow.height]).toEqual([800, 1600]);
    for (const row of [pngRow, webpRow]) {
      const meta = await sharp(row.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', row.width, row.height]);
      expect(meta.exif).toBeUndefined();
    }
    // A small photo is not enlarged.
    const small = await uploaded(gestor, await jpeg(320, 240));
    expect([small.width, small.height]).toEqual([320, 240]);
  });

  it('decides the type from the bytes, not the declared name or type', async () => {
    const png = await twoColours(300, 200).png().toBuffer();
    const row = await uploaded(gestor, png, 'foto.gif');
    expect((await sharp(row.bytes).metadata()).format).toBe('jpeg');
    const fake = Buffer.from('esto no es una imagen, aunque se llame foto.jpg');
    const res = await upload(gestor, fake, 'foto.jpg', 'image/jpeg').expect(400);
    expect(res.body).toEqual({ detail: 'El archivo no es una imagen' });
  });

  it('refuses what is not a JPEG, PNG or WebP, or cannot be decoded: 400', async () => {
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: 'red' } })
      .gif()
      .toBuffer();
    const whole = await jpeg(800, 600);
    const cut = whole.subarray(0, Math.floor(whole.length / 2));
    const magicOnly = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200)]);
    for (const bytes of [gif, cut, magicOnly, Buffer.alloc(0)]) {
      const res = await upload(gestor, bytes).expect(400);
      expect(res.body).toEqual({ detail: GATE_PHOTO_ERR.notImage });
    }
    expect(await db.select({ id: gatePhotos.id }).from(gatePhotos)).toEqual([]);
  });

  it('refuses over 50 megapixels from the header, before decoding: 400', async () => {
    // A real JPEG whose frame header claims 10000 × 5001 (50,010,000 pixels).
    const big = Buffer.from(await jpeg(16, 16));
    const sof = big.indexOf(Buffer.from([0xff, 0xc0]));
    expect(sof).toBeGreaterThan(0);
    big.writeUInt16BE(5001, sof + 5);
    big.writeUInt16BE(10000, sof + 7);
    const meta = await sharp(big).metadata();
    expect([meta.width, meta.height]).toEqual([10000, 5001]);
    const res = await upload(gestor, big).expect(400);
    expect(res.body).toEqual({ detail: 'La imagen es demasiado grande' });
    // 10000 × 5000 is exactly 50 megapixels: not refused for its size (its broken pixels are).
    big.writeUInt16BE(5000, sof + 5);
    expect((await upload(gestor, big).expect(400)).body).toEqual({ detail: GATE_PHOTO_ERR.notImage });
  });

  it('refuses a file over 15 MB: 413', async () => {
    const over = Buffer.alloc(PHOTO_MAX_BYTES + 1);
    (await jpeg()).copy(over);
    const res = await upload(gestor, over).expect(413);
    expect(res.body).toEqual({ detail: 'La foto no puede superar 15 MB' });
    expect(await db.select({ id: gatePhotos.id }).from(gatePhotos)).toEqual([]);
  });

  it('refuses at once a body declared far over 15 MB, without reading it', async () => {
    const server = http.createServer(app).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          {
            port,
            host: '127.0.0.1',
            method: 'POST',
            path: '/api/gate/photos',
            headers: {
              ...gestor.auth,
              'Content-Type': 'multipart/form-data; boundary=x',
              'Content-Length': String(100 * 1024 * 1024),
            },
          },
          (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => (body += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.write('--x\r\n'); // and never the 100 MB
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({ detail: GATE_PHOTO_ERR.tooLarge });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('wants exactly one file in the field photo', async () => {
    const photo = await jpeg();
    const noFile = await api().post('/api/gate/photos').set(gestor.auth).send({ photo: 'x' }).expect(400);
    expect(noFile.body).toEqual({ detail: GATE_PHOTO_ERR.missing });
    const otherField = await api()
      .post('/api/gate/photos')
      .set(gestor.auth)
      .attach('foto', photo, 'foto.jpg')
      .expect(400);
    expect(otherField.body).toEqual({ detail: GATE_PHOTO_ERR.missing });
    const two = await api()
      .post('/api/gate/photos')
      .set(gestor.auth)
      .attach('photo', photo, 'a.jpg')
      .attach('photo', photo, 'b.jpg')
      .expect(400);
    expect(two.body).toEqual({ detail: GATE_PHOTO_ERR.oneOnly });
    expect(await db.select({ id: gatePhotos.id }).from(gatePhotos)).toEqual([]);
  });

  it('ignores the Idempotency-Key: the same upload twice is two photos, no key stored', async () => {
    const photo = await jpeg();
    const key = '5b0f4a3e-9c1d-4e2f-8a7b-6c5d4e3f2a1b';
    const first = await upload(gestor, photo).set('Idempotency-Key', key).expect(201);
    const second = await upload(gestor, photo).set('Idempotency-Key', key).expect(201);
    expect(first.body.id).not.toBe(second.body.id);
    expect(await db.select().from(idempotencyKeys)).toEqual([]);
  });
});

describe('who may upload and read (CONTRACT §24)', () => {
  it('staff and conductors upload; only admin, manager and gestor read; nobody unauthenticated', async () => {
    const photo = await jpeg();
    const ids: string[] = [];
    for (const role of ['admin', 'manager', 'gestor', 'conductor'] as const) {
      const res = await upload(await makeUser(role), photo).expect(201);
      ids.push(res.body.id as string);
    }
    const anon = await upload(undefined, photo).expect(401);
    expect(anon.body).toEqual({ detail: 'No autorizado' });
    for (const role of ['admin', 'manager', 'gestor'] as const) {
      const res = await api()
        .get(`/api/gate/photos/${ids[3]}`)
        .set((await makeUser(role)).auth)
        .expect(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
    }
    // A conductor may not read a photo, not even their own.
    const refused = await api().get(`/api/gate/photos/${ids[3]}`).set(driver.auth).expect(403);
    expect(refused.body.detail).toBeTruthy();
    expect(refused.headers['content-type']).toMatch(/json/);
    await api().get(`/api/gate/photos/${ids[0]}`).expect(401);
  });

  it('an unknown photo is a 404, a malformed id a 400', async () => {
    const res = await api()
      .get('/api/gate/photos/3f2a1b5c-0000-4000-8000-000000000000')
      .set(gestor.auth)
      .expect(404);
    expect(res.body).toEqual({ detail: 'Foto no encontrada' });
    expect(res.headers['cache-control']).toBe('no-store');
    await api().get('/api/gate/photos/nope').set(gestor.auth).expect(400);
  });
});

describe('the decode limit: 2 at a time per node, 10 waiting, then 503', () => {
  it('runs two, queues ten and refuses the thirteenth with a Spanish detail', async () => {
    const gates: (() => void)[] = [];
    let running = 0;
    let maxRunning = 0;
    const job = () =>
      photoDecodes.run('decode', async () => {
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        await new Promise<void>((resolve) => gates.push(resolve));
        running -= 1;
        return 'hecho';
      });
    const accepted = Array.from({ length: 12 }, job);
    await new Promise((resolve) => setImmediate(resolve));
    expect(running).toBe(2);
    const refused = await job().catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 503, detail: GATE_PHOTO_ERR.busy });
    // Freed slots pass to the ones waiting, never more than two running.
    let done = 0;
    accepted.forEach((p) => void p.then(() => (done += 1)));
    for (let turns = 0; done < 12 && turns < 100; turns++) {
      gates.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(accepted)).toEqual(Array(12).fill('hecho'));
    expect(maxRunning).toBe(2);
    // And a new one runs again.
    const again = job();
    await new Promise((resolve) => setImmediate(resolve));
    gates.shift()!();
    expect(await again).toBe('hecho');
  });
});

describe('claimPhotos (a gate entry takes its photos)', () => {
  const claim = (userId: string, ids: string[], visit: string | null = null) =>
    tx(() => claimPhotos({ id: userId }, ids, visit)).then(
      () => 'ok',
      (err: unknown) => (err instanceof HttpError ? `${err.status} ${err.detail}` : err),
    );
  const attachedAt = async (id: string) =>
    (await db.select().from(gatePhotos).where(eq(gatePhotos.id, id)))[0]?.attachedAt ?? null;

  it('attaches the caller’s unattached photos; anything else is 400 Foto no válida and attaches nothing', async () => {
    const photo = await jpeg();
    const [mine1, mine2] = [(await uploaded(gestor, photo)).id, (await uploaded(gestor, photo)).id];
    const theirs = (await uploaded(driver, photo)).id;
    const unknown = '3f2a1b5c-0000-4000-8000-000000000000';

    expect(await claim(gestor.user.id, [mine1, theirs])).toBe('400 Foto no válida');
    expect(await claim(gestor.user.id, [mine1, unknown])).toBe('400 Foto no válida');
    expect(await attachedAt(mine1)).toBeNull(); // the refused claims attached nothing

    expect(await claim(gestor.user.id, [])).toBe('ok');
    expect(await claim(gestor.user.id, [mine1, mine2], 'visita-1')).toBe('ok');
    const [row] = await db.select().from(gatePhotos).where(eq(gatePhotos.id, mine1));
    expect(row).toMatchObject({ attachedTo: 'visita-1' });
    expect(row!.attachedAt!.getTime()).toBeLessThanOrEqual(now().getTime());
    expect(await attachedAt(mine2)).not.toBeNull();

    // Attached already: not again, by anyone.
    expect(await claim(gestor.user.id, [mine1])).toBe('400 Foto no válida');
    expect(await claim(driver.user.id, [mine2])).toBe('400 Foto no válida');
    // The driver's own is theirs to claim.
    expect(await claim(driver.user.id, [theirs])).toBe('ok');
  });

  it('two entries naming the same photo: one takes it', async () => {
    const id = (await uploaded(gestor, await jpeg())).id;
    const results = await Promise.all([claim(gestor.user.id, [id]), claim(gestor.user.id, [id])]);
    expect(results.sort()).toEqual(['400 Foto no válida', 'ok']);
  });
});

describe('the clean-up', () => {
  it('deletes unattached photos after 24 h and attached ones 365 days after they were attached', async () => {
    const photo = await jpeg();
    const loose = (await uploaded(gestor, photo)).id;
    const kept = (await uploaded(gestor, photo)).id;
    await tx(() => claimPhotos({ id: gestor.user.id }, [kept]));

    // Tokens do not outlive the jumps: a staff member who signs in now reads.
    const status = async (id: string) =>
      (
        await api()
          .get(`/api/gate/photos/${id}`)
          .set((await makeUser('manager')).auth)
      ).status;

    await advanceClock(DAY - 60_000);
    expect(await sweepPhotos()).toBe(0);
    expect(await status(loose)).toBe(200);

    await advanceClock(2 * 60_000);
    expect(await sweepPhotos()).toBe(1);
    expect([await status(loose), await status(kept)]).toEqual([404, 200]);

    await advanceClock(364 * DAY - 2 * 60_000);
    expect(await sweepPhotos()).toBe(0);
    expect(await status(kept)).toBe(200);
    await advanceClock(2 * 60_000);
    expect(await sweepPhotos()).toBe(1);
    expect(await status(kept)).toBe(404);
    expect(await db.select({ id: gatePhotos.id }).from(gatePhotos)).toEqual([]);
  });

  it('runs on its own a minute after start, then hourly', async () => {
    const loose = (await uploaded(gestor, await jpeg())).id;
    const count = async () => (await db.select({ id: gatePhotos.id }).from(gatePhotos)).length;
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'] });
    // Only the sweep: no backups scheduled for a database that is not a file.
    configure({ dbPath: ':memory:' });
    const stop = startBackgroundJobs();
    try {
      await advanceClock(DAY + 60_000);
      vi.advanceTimersByTime(BACKUP_FIRST_CHECK_MS - 1);
      expect(await count()).toBe(1);
      vi.advanceTimersByTime(1);
      await vi.waitFor(async () => expect(await count()).toBe(0));
      const later = (await uploaded(await makeUser('gestor'), await jpeg())).id;
      await advanceClock(DAY + 60_000);
      vi.advanceTimersByTime(PHOTO_SWEEP_EVERY_MS);
      await vi.waitFor(async () => expect(await count()).toBe(0));
      expect(later).not.toBe(loose);
    } finally {
      stop();
      vi.useRealTimers();
    }
  });
});

// The gate's photos (CONTRACT §19 "Photos", §21, §24): staff, conductors and API keys with `gate:write` upload
// one image (multipart, field `photo`), staff read them back. The Idempotency-Key is ignored here (http/idempotency.ts, WITHOUT_KEY).
import { Router } from 'express';
import { GATE_PHOTO_ERR } from '@shared/labels';
import { PHOTO_MAX_BYTES, type GatePhotoCreated } from '@shared/schemas';
import { currentPrincipal, requireAuth } from '../http/auth';
import { readOneFile } from '../http/multipart';
import { parseId } from '../http/validate';
import { readPhoto, storePhoto } from '../services/gate-photos';

export const gatePhotoRoutes = Router();

/** A stored photo never changes: the browser may keep it (only for the staff member who read it). */
const PHOTO_CACHE = 'private, max-age=31536000, immutable';

gatePhotoRoutes.post('/gate/photos', requireAuth('gate:photos:upload'), async (req, res) => {
  const upload = await readOneFile(req, {
    field: 'photo',
    maxBytes: PHOTO_MAX_BYTES,
    tooLarge: GATE_PHOTO_ERR.tooLarge,
    missing: GATE_PHOTO_ERR.missing,
    oneOnly: GATE_PHOTO_ERR.oneOnly,
  });
  const answer: GatePhotoCreated = { id: await storePhoto(currentPrincipal(req), upload) };
  res.status(201).json(answer);
});

gatePhotoRoutes.get('/gate/photos/:id', requireAuth('gate:photos:read'), async (req, res) => {
  const bytes = await readPhoto(parseId(req));
  res.setHeader('Cache-Control', PHOTO_CACHE);
  res.type('image/jpeg').send(bytes);
});

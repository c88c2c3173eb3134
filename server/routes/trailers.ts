// The trailers (CONTRACT §19, §24): the records staff search, read, edit and place.
import { Router } from 'express';
import {
  trailerIdParams,
  trailerDamageSchema,
  trailerPositionSchema,
  trailerSearchSchema,
  updateTrailerSchema,
  type TrailerList,
} from '@shared/schemas';
import { currentUser, requireAuth } from '../http/auth';
import { parseBody, parseQuery } from '../http/validate';
import {
  clearDamage,
  damageTrailer,
  positionTrailer,
  searchTrailers,
  trailerDetail,
  updateTrailer,
} from '../services/trailers';

export const trailerRoutes = Router();
const read = requireAuth('trailers:read');
const write = requireAuth('trailers:write');

trailerRoutes.get('/trailers', read, async (req, res) => {
  const { q } = parseQuery(trailerSearchSchema, req);
  res.json({ trailers: await searchTrailers(q) } satisfies TrailerList);
});

trailerRoutes.get('/trailers/:trailer_id', read, async (req, res) => {
  const { trailer_id } = trailerIdParams.parse(req.params);
  res.json(await trailerDetail(trailer_id));
});

trailerRoutes.put('/trailers/:trailer_id', write, async (req, res) => {
  const { trailer_id } = trailerIdParams.parse(req.params);
  res.json({
    trailer: await updateTrailer(trailer_id, parseBody(updateTrailerSchema, req), currentUser(req)),
  });
});

trailerRoutes.post('/trailers/:trailer_id/position', write, async (req, res) => {
  const { trailer_id } = trailerIdParams.parse(req.params);
  res.json({
    trailer: await positionTrailer(trailer_id, parseBody(trailerPositionSchema, req), currentUser(req)),
  });
});

trailerRoutes.post('/trailers/:trailer_id/damage', write, async (req, res) => {
  const { trailer_id } = trailerIdParams.parse(req.params);
  const { note } = parseBody(trailerDamageSchema, req);
  res.json({ trailer: await damageTrailer(trailer_id, note, currentUser(req)) });
});

trailerRoutes.post('/trailers/:trailer_id/clear-damage', write, async (req, res) => {
  const { trailer_id } = trailerIdParams.parse(req.params);
  const { note } = parseBody(trailerDamageSchema, req);
  res.json({ trailer: await clearDamage(trailer_id, note, currentUser(req)) });
});

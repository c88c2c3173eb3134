// The yard (CONTRACT §17): the location catalogue (/locations, /admin/locations…) and what staff see of
// the yard (/yard…).
import { Router } from 'express';
import {
  createLocationSchema,
  importLocationsSchema,
  trailerParams,
  updateLocationSchema,
  type MessageResponse,
} from '@shared/schemas';
import { YARD_MSG } from '@shared/labels';
import { currentUser, requireAuth } from '../http/auth';
import { parseBody, parseId } from '../http/validate';
import { createLocation, importLocations, listLocations, updateLocation } from '../services/locations';
import { leaveYard, sharedYardMap, sharedYardTrailers } from '../services/yard';
import { sendShared } from '../http/shared-answer';
import { sendLongRead } from '../http/long-read';

export const yardRoutes = Router();
const manage = requireAuth('locations:manage');

yardRoutes.get('/locations', requireAuth('locations:read'), async (_req, res) => {
  res.json(await listLocations());
});

yardRoutes.post('/admin/locations', manage, async (req, res) => {
  res.status(201).json(await createLocation(parseBody(createLocationSchema, req), currentUser(req)));
});

yardRoutes.post('/admin/locations/import', manage, async (req, res) => {
  const { csv } = parseBody(importLocationsSchema, req);
  res.json(await importLocations(csv, currentUser(req)));
});

yardRoutes.put('/admin/locations/:id', manage, async (req, res) => {
  const id = parseId(req);
  res.json(await updateLocation(id, parseBody(updateLocationSchema, req), currentUser(req)));
});

/** Soft: the place is deactivated (old tasks keep pointing at it). */
yardRoutes.delete('/admin/locations/:id', manage, async (req, res) => {
  await updateLocation(parseId(req), { active: false }, currentUser(req));
  res.json({ message: YARD_MSG.deactivated } satisfies MessageResponse);
});

// Many staff screens refetch together after a `yard:changed`: one answer per yard version, 304 to a
// browser that holds it already.
yardRoutes.get('/yard', requireAuth('yard:read'), async (req, res) => {
  await sendShared(req, res, await sharedYardMap());
});

yardRoutes.get('/yard/trailers', requireAuth('yard:read'), async (req, res) => {
  await sendShared(req, res, await sharedYardTrailers());
});

yardRoutes.get('/yard/trailers/export-excel', requireAuth('yard:read'), async (_req, res) => {
  await sendLongRead(res, 'yardExcel', undefined);
});

yardRoutes.post('/yard/trailers/:trailer_id/leave', requireAuth('yard:leave'), async (req, res) => {
  const { trailer_id } = trailerParams.parse(req.params);
  await leaveYard(trailer_id, currentUser(req));
  res.json({ message: YARD_MSG.left(trailer_id) } satisfies MessageResponse);
});

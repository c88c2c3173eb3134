// The shift handover (CONTRACT §20 "Shift handover", §24: admin, manager, gestor).
import { Router } from 'express';
import { handoverNoteSchema, handoverQuerySchema } from '@shared/schemas';
import { currentUser, requireAuth } from '../http/auth';
import { parseBody, parseId, parseQuery } from '../http/validate';
import { sendLongRead } from '../http/long-read';
import { addNote, deleteNote } from '../services/handover';

export const handoverRoutes = Router();
const read = requireAuth('handover:read');
const write = requireAuth('handover:write');

handoverRoutes.get('/handover', read, async (req, res) => {
  await sendLongRead(res, 'handover', parseQuery(handoverQuerySchema, req));
});

handoverRoutes.get('/handover/export-excel', read, async (req, res) => {
  await sendLongRead(res, 'handoverExcel', parseQuery(handoverQuerySchema, req));
});

handoverRoutes.post('/handover/notes', write, async (req, res) => {
  res.status(201).json(await addNote(parseBody(handoverNoteSchema, req), currentUser(req)));
});

handoverRoutes.delete('/handover/notes/:id', write, async (req, res) => {
  await deleteNote(parseId(req), currentUser(req));
  res.status(204).end();
});

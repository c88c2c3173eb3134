// The shift handover (CONTRACT §20 "Shift handover", §24: admin, manager, gestor).
import { Router } from 'express';
import { handoverNoteSchema, handoverQuerySchema, type HandoverReport } from '@shared/schemas';
import { HANDOVER_EXCEL } from '@shared/labels';
import { currentUser, requireAuth } from '../http/auth';
import { parseBody, parseId, parseQuery } from '../http/validate';
import { sendWorkbook } from '../excel/workbook';
import { handoverWorkbook } from '../excel/handover';
import { addNote, deleteNote, handoverReport } from '../services/handover';

export const handoverRoutes = Router();
const read = requireAuth('handover:read');
const write = requireAuth('handover:write');

handoverRoutes.get('/handover', read, async (req, res) => {
  res.json((await handoverReport(parseQuery(handoverQuerySchema, req))) satisfies HandoverReport);
});

handoverRoutes.get('/handover/export-excel', read, async (req, res) => {
  const report = await handoverReport(parseQuery(handoverQuerySchema, req));
  await sendWorkbook(res, handoverWorkbook(report), HANDOVER_EXCEL.fileName(report.date, report.shift));
});

handoverRoutes.post('/handover/notes', write, async (req, res) => {
  res.status(201).json(await addNote(parseBody(handoverNoteSchema, req), currentUser(req)));
});

handoverRoutes.delete('/handover/notes/:id', write, async (req, res) => {
  await deleteNote(parseId(req), currentUser(req));
  res.status(204).end();
});

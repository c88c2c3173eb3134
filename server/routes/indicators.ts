// The yard's indicators (CONTRACT §22, §24: admin, manager).
import { Router } from 'express';
import { indicatorsQuerySchema } from '@shared/schemas';
import { requireAuth } from '../http/auth';
import { parseQuery } from '../http/validate';
import { sendLongRead } from '../http/long-read';

export const indicatorRoutes = Router();
const read = requireAuth('indicators:read');

indicatorRoutes.get('/admin/indicators', read, async (req, res) => {
  await sendLongRead(res, 'indicators', parseQuery(indicatorsQuerySchema, req));
});

indicatorRoutes.get('/admin/indicators/export-excel', read, async (req, res) => {
  await sendLongRead(res, 'indicatorsExcel', parseQuery(indicatorsQuerySchema, req));
});

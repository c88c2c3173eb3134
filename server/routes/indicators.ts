// The yard's indicators (CONTRACT §22, §24: admin, manager).
import { Router } from 'express';
import { indicatorsQuerySchema, type Indicators } from '@shared/schemas';
import { INDICATORS_EXCEL } from '@shared/labels';
import { requireAuth } from '../http/auth';
import { parseQuery } from '../http/validate';
import { sendWorkbook } from '../excel/workbook';
import { indicatorsWorkbook } from '../excel/indicators';
import { indicators } from '../services/indicators';

export const indicatorRoutes = Router();
const read = requireAuth('indicators:read');

indicatorRoutes.get('/admin/indicators', read, async (req, res) => {
  res.json((await indicators(parseQuery(indicatorsQuerySchema, req))) satisfies Indicators);
});

indicatorRoutes.get('/admin/indicators/export-excel', read, async (req, res) => {
  const report = await indicators(parseQuery(indicatorsQuerySchema, req));
  await sendWorkbook(
    res,
    indicatorsWorkbook(report),
    INDICATORS_EXCEL.fileName(report.period.from, report.period.to),
  );
});

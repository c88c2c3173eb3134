// The gate (CONTRACT §19 "Gate visits", §24): entries, exits, the visits and where to put a trailer.
import { Router } from 'express';
import {
  gateEntrySchema,
  gateExitSchema,
  gateSuggestionsQuerySchema,
  gateVisitsQuerySchema,
  truckStaysQuerySchema,
  type GateExitResult,
  type GateVisitList,
} from '@shared/schemas';
import { currentPrincipal, requireAuth } from '../http/auth';
import { parseBody, parseQuery } from '../http/validate';
import { sendLongRead } from '../http/long-read';
import { enterGate, exitGate, listVisits, suggestPlaces } from '../services/gate';

export const gateRoutes = Router();
const read = requireAuth('gate:read');
const write = requireAuth('gate:write');

gateRoutes.post('/gate/entries', write, async (req, res) => {
  res.status(201).json(await enterGate(parseBody(gateEntrySchema, req), currentPrincipal(req)));
});

gateRoutes.post('/gate/exits', write, async (req, res) => {
  const visit = await exitGate(parseBody(gateExitSchema, req), currentPrincipal(req));
  res.json({ visit } satisfies GateExitResult);
});

gateRoutes.get('/gate/visits', read, async (req, res) => {
  res.json({ visits: await listVisits(parseQuery(gateVisitsQuerySchema, req)) } satisfies GateVisitList);
});

gateRoutes.get('/gate/suggestions', read, async (req, res) => {
  res.json(await suggestPlaces(parseQuery(gateSuggestionsQuerySchema, req)));
});

// CONTRACT §19 "Waiting times", §24: admin and manager.
gateRoutes.get('/admin/reports/truck-stays', requireAuth('reports:read'), async (req, res) => {
  await sendLongRead(res, 'truckStays', parseQuery(truckStaysQuerySchema, req));
});

gateRoutes.get('/admin/reports/truck-stays/export-excel', requireAuth('reports:read'), async (req, res) => {
  await sendLongRead(res, 'truckStaysExcel', parseQuery(truckStaysQuerySchema, req));
});

// Dashboard figures and driver lists (CONTRACT §6; any authenticated user).
import { Router } from 'express';
import { currentUser, requireAuth } from '../http/auth';
import { dashboardStats, onlineDrivers, rankings } from '../services/dashboard';

export const dashboardRoutes = Router();
const read = requireAuth('dashboard:read');

dashboardRoutes.get('/dashboard/stats', read, async (req, res) => {
  res.json(await dashboardStats(currentUser(req).role === 'admin'));
});

dashboardRoutes.get('/dashboard/online-drivers', read, async (_req, res) => {
  res.json(await onlineDrivers());
});

dashboardRoutes.get('/dashboard/rankings', read, async (_req, res) => {
  res.json(await rankings());
});

// Dashboard figures and driver lists (CONTRACT §6; any authenticated user).
import { Router } from 'express';
import { currentUser, requireAuth } from '../http/auth';
import { dashboardStats, onlineDrivers, rankings } from '../services/dashboard';

export const dashboardRoutes = Router();
const read = requireAuth('dashboard:read');

dashboardRoutes.get('/dashboard/stats', read, (req, res) => {
  res.json(dashboardStats(currentUser(req).role === 'admin'));
});

dashboardRoutes.get('/dashboard/online-drivers', read, (_req, res) => {
  res.json(onlineDrivers());
});

dashboardRoutes.get('/dashboard/rankings', read, (_req, res) => {
  res.json(rankings());
});

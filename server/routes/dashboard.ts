import { Router } from 'express';

export const dashboardRoutes = Router();

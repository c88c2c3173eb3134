import { Router } from 'express';

export const adminSystemRoutes = Router();

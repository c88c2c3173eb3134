import { Router } from 'express';

export const adminUserRoutes = Router();

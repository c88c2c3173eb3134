import { Router } from 'express';

export const notificationRoutes = Router();

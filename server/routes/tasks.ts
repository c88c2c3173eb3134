import { Router } from 'express';

export const taskRoutes = Router();

import { Router } from 'express';

export const authRoutes = Router();

import { Router } from 'express';

export const supervisionRoutes = Router();

import { Router } from 'express';

export const timeclockRoutes = Router();

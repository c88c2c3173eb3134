// POST /auth/register, /auth/login (public), /auth/refresh, /auth/logout (CONTRACT §4).
import { Router, type Request } from 'express';
import { ACCOUNT_MSG } from '@shared/labels';
import { loginSchema, registerSchema } from '@shared/schemas';
import { currentUser, requireAuth } from '../http/auth';
import { parseBody } from '../http/validate';
import { login, logout, refresh, register } from '../services/auth';

export const authRoutes = Router();

const clientIp = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? '';

authRoutes.post('/auth/register', async (req, res) => {
  res.status(201).json(await register(parseBody(registerSchema, req), clientIp(req)));
});

authRoutes.post('/auth/login', async (req, res) => {
  res.json(await login(parseBody(loginSchema, req), clientIp(req)));
});

authRoutes.post('/auth/refresh', requireAuth('session:use'), (req, res) => {
  res.json(refresh(currentUser(req)));
});

authRoutes.post('/auth/logout', requireAuth('session:use'), async (req, res) => {
  await logout(currentUser(req), req.token ?? '');
  res.json({ message: ACCOUNT_MSG.loggedOut });
});

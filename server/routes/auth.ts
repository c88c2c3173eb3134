// POST /auth/register, /auth/login (public), /auth/refresh, /auth/logout, /auth/change-password
// (CONTRACT §4, §14).
import { Router, type Request } from 'express';
import { ACCOUNT_MSG } from '@shared/labels';
import { changePasswordSchema, loginSchema, registerSchema } from '@shared/schemas';
import { currentSession, currentUser, requireAuth } from '../http/auth';
import { parseBody } from '../http/validate';
import { changePassword, login, logout, refresh, register, type ClientMeta } from '../services/auth';

export const authRoutes = Router();

const client = (req: Request): ClientMeta => ({
  ip: req.ip ?? req.socket.remoteAddress ?? '',
  userAgent: req.get('user-agent') ?? null,
});

authRoutes.post('/auth/register', async (req, res) => {
  res.status(201).json(await register(parseBody(registerSchema, req), client(req)));
});

authRoutes.post('/auth/login', async (req, res) => {
  res.json(await login(parseBody(loginSchema, req), client(req)));
});

authRoutes.post('/auth/refresh', requireAuth('session:use'), async (req, res) => {
  res.json(await refresh(currentUser(req), currentSession(req)));
});

authRoutes.post('/auth/logout', requireAuth('session:use'), async (req, res) => {
  await logout(currentUser(req), currentSession(req));
  res.json({ message: ACCOUNT_MSG.loggedOut });
});

authRoutes.post('/auth/change-password', requireAuth('password:change'), async (req, res) => {
  const body = parseBody(changePasswordSchema, req);
  res.json(await changePassword(currentUser(req), currentSession(req), body, client(req)));
});

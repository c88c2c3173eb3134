// Bearer authentication and the role gate. The user is read from the database on every request, so
// a role change, a revocation or a deletion takes effect at once (CONTRACT §3).
import type { Request, RequestHandler } from 'express';
import { ERR } from '@shared/labels';
import type { UserRow } from '../db/tables';
import { can, type Action } from '../policies';
import { verifyToken, type TokenClaims } from '../services/tokens';
import { accountOfSession } from '../services/sessions';
import { presence } from '../services/presence';
import { forbidden, unauthorized } from './errors';

declare module 'express-serve-static-core' {
  interface Request {
    user?: UserRow;
    token?: string;
    sessionId?: string;
  }
}

/**
 * The user of a token, if the token is valid, unrevoked, its session open (CONTRACT §14) and the
 * account approved and alive.
 */
export async function authenticateToken(token: string): Promise<{ user: UserRow; claims: TokenClaims }> {
  const claims = verifyToken(token);
  const found = await accountOfSession(claims.sub, claims.sid);
  const user = found?.user;
  if (!user || user.deletedAt) throw unauthorized(ERR.sessionRevoked);
  if (user.tokenVersion !== claims.tv) throw unauthorized(ERR.sessionRevoked);
  if (!user.isApproved) throw unauthorized(ERR.sessionRevoked);
  if (!found.sessionOpen) throw unauthorized(ERR.sessionRevoked);
  return { user, claims };
}

const bearer = (req: Request): string => {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw unauthorized();
  return match[1];
};

/**
 * Authenticates the request and lets it through only if the role may do `action`. After an admin's
 * password reset, the only action left is changing the password.
 */
export const requireAuth =
  (action: Action): RequestHandler =>
  async (req, _res, next) => {
    const token = bearer(req);
    const { user, claims } = await authenticateToken(token);
    if (user.mustChangePassword && action !== 'password:change') throw forbidden(ERR.mustChangePassword);
    req.user = user;
    req.token = token;
    req.sessionId = claims.sid;
    await presence.touch(user.id);
    if (!can(user.role, action)) throw forbidden();
    next();
  };

/** The authenticated user of a request that passed requireAuth. */
export function currentUser(req: Request): UserRow {
  if (!req.user) throw unauthorized();
  return req.user;
}

/** The login session of a request that passed requireAuth. */
export function currentSession(req: Request): string {
  if (!req.sessionId) throw unauthorized();
  return req.sessionId;
}

// Bearer authentication and the role gate. The user is read from the database on every request, so
// a role change, a revocation or a deletion takes effect at once (CONTRACT §3); so is an API key's client
// (CONTRACT §21).
import type { Request, RequestHandler, Response } from 'express';
import { API_CLIENT_ERR, ERR } from '@shared/labels';
import type { UserRow } from '../db/tables';
import { withRequestMark, type RequestMark } from '../db/change-mark';
import { API_SCOPE, can, type Action } from '../policies';
import { clientPrincipal, type Principal } from '../principal';
import { clientOfKey, isApiKey } from '../services/api-clients';
import { countKeyRequest } from './api-key-rate';
import { verifyToken, type TokenClaims } from '../services/tokens';
import { accountOfSession } from '../services/sessions';
import { presence } from '../services/presence';
import { forbidden, unauthorized } from './errors';

declare module 'express-serve-static-core' {
  interface Request {
    user?: UserRow;
    /** Who the request acts as: the user, or an API client (CONTRACT §21). */
    principal?: Principal;
    token?: string;
    sessionId?: string;
  }
}

/**
 * The user of a token, if the token is valid, unrevoked, its session open (CONTRACT §14) and the
 * account approved and alive.
 */
export async function authenticateToken(
  token: string,
): Promise<{ user: UserRow; claims: TokenClaims; mark?: RequestMark }> {
  const claims = verifyToken(token);
  const found = await accountOfSession(claims.sub, claims.sid);
  const user = found?.user;
  if (!user || user.deletedAt) throw unauthorized(ERR.sessionRevoked);
  if (user.tokenVersion !== claims.tv) throw unauthorized(ERR.sessionRevoked);
  if (!user.isApproved) throw unauthorized(ERR.sessionRevoked);
  if (!found.sessionOpen) throw unauthorized(ERR.sessionRevoked);
  return { user, claims, mark: found.mark };
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
  async (req, res, next) => {
    const token = bearer(req);
    if (isApiKey(token)) {
      await authenticateKey(token, action, req, res);
      return next();
    }
    const { user, claims, mark } = await authenticateToken(token);
    if (user.mustChangePassword && action !== 'password:change') throw forbidden(ERR.mustChangePassword);
    req.user = user;
    req.principal = user;
    req.token = token;
    req.sessionId = claims.sid;
    await presence.touch(user.id);
    if (!can(user.role, action)) throw forbidden();
    // PostgreSQL: the kept figures and answers this request reads are checked against its authentication's snapshot.
    withRequestMark(mark, next);
  };

/**
 * CONTRACT §21: a key's client, counted against its rate, let through within its scopes as a manager. It
 * creates no presence and has no session.
 */
async function authenticateKey(key: string, action: Action, req: Request, res: Response): Promise<void> {
  const client = await clientOfKey(key);
  if (!client) throw unauthorized(API_CLIENT_ERR.invalidKey);
  await countKeyRequest(client.id, res);
  const scope = API_SCOPE[action];
  if (!scope) {
    const admin = `${req.baseUrl}${req.path}`.startsWith('/api/admin');
    throw forbidden(admin ? API_CLIENT_ERR.noAdmin : API_CLIENT_ERR.notForKeys);
  }
  if (!client.scopes.includes(scope)) throw forbidden(API_CLIENT_ERR.missingScope(scope));
  const principal = clientPrincipal(client);
  if (!can(principal.role, action)) throw forbidden();
  req.principal = principal;
}

/** The authenticated user of a request that passed requireAuth. */
export function currentUser(req: Request): UserRow {
  if (!req.user) throw unauthorized();
  return req.user;
}

/** Who the request acts as: its user, or its API key's client. */
export function currentPrincipal(req: Request): Principal {
  if (!req.principal) throw unauthorized();
  return req.principal;
}

/** The login session of a request that passed requireAuth. */
export function currentSession(req: Request): string {
  if (!req.sessionId) throw unauthorized();
  return req.sessionId;
}

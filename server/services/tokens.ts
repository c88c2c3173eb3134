// HS256 bearer tokens {sub, tv, sid} with a 12 h life, issued and checked against the server clock.
// `sid` names the login session (services/sessions.ts); a token without one, or without a numeric
// `exp`, is refused (tokens from before sessions existed end once, at the upgrade).
import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { TOKEN_TTL_MS } from '@shared/constants';
import { ERR } from '@shared/labels';
import { config } from '../config';
import { nowMs } from '../clock';
import { HttpError, unauthorized } from '../http/errors';

export interface TokenClaims {
  sub: string;
  tv: number;
  sid: string;
  iat: number;
  exp: number;
}

// jsonwebtoken turns a string secret into a key on every call (~1 ms); build it once per secret.
let key: { secret: string; key: KeyObject } | undefined;
const secretKey = (): KeyObject => {
  if (key?.secret !== config.jwtSecret)
    key = { secret: config.jwtSecret, key: createSecretKey(Buffer.from(config.jwtSecret)) };
  return key.key;
};

export function signToken(user: { id: string; tokenVersion: number }, sid: string): string {
  const iat = Math.floor(nowMs() / 1000);
  return jwt.sign(
    { sub: user.id, tv: user.tokenVersion, sid, iat, exp: iat + TOKEN_TTL_MS / 1000 },
    secretKey(),
    { algorithm: 'HS256' },
  );
}

/** Verifies signature and expiry; throws a 401 HttpError otherwise. */
export function verifyToken(token: string): TokenClaims {
  try {
    const claims = jwt.verify(token, secretKey(), {
      algorithms: ['HS256'],
      clockTimestamp: Math.floor(nowMs() / 1000),
    });
    if (
      typeof claims !== 'object' ||
      typeof claims.sub !== 'string' ||
      typeof claims.tv !== 'number' ||
      typeof claims.sid !== 'string' ||
      typeof claims.exp !== 'number'
    ) {
      throw unauthorized(ERR.sessionRevoked);
    }
    return claims as TokenClaims;
  } catch (err) {
    if (err instanceof jwt.TokenExpiredError) throw unauthorized(ERR.sessionExpired);
    if (err instanceof HttpError) throw err;
    throw unauthorized();
  }
}

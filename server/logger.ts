import pino from 'pino';
import { config } from './config';

export const logger = pino({
  level: config.logLevel === 'silent' ? 'silent' : config.logLevel,
  redact: ['jwtSecret', 'password', 'passwordHash', 'access_token'],
});

// `npm start`: config from the environment, then serve.
import { config } from './config';
import { startServer } from './server';
import { logger } from './logger';

const server = await startServer();
logger.info(`Torre de Control escuchando en http://${config.host}:${server.port}`);
console.log(`Torre de Control lista en http://localhost:${server.port}`);

const shutdown = async (signal: string) => {
  logger.info({ signal }, 'cerrando');
  await server.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

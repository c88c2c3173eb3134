// A generated yard (scripts/generator, the one generator) written into a database file for a section's
// server. Loaded lazily: the generator opens the server's database module in this process.
import type { YardOptions, YardResult } from '../generator';

export async function generateYardFile(file: string, options: YardOptions): Promise<YardResult> {
  const { closeDb, openDb, runMigrations } = await import('../../server/db');
  const { generateYard } = await import('../generator');
  openDb(file);
  try {
    runMigrations();
    return await generateYard(options);
  } finally {
    closeDb();
  }
}

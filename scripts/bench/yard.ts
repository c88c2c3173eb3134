// A generated yard (scripts/generator, the one generator) written into a section's database, through the
// server's database layer opened on it in this process. On PostgreSQL the fresh tables are then vacuumed
// and analysed, as autovacuum does by itself within a minute of a bulk load: the bench measures a
// database in its steady state, not the planner's first minute without statistics. (SQLite never runs
// ANALYZE: its statements that need it name their index.)
import type { YardOptions, YardResult } from '../generator';
import { ENGINE, type BenchDatabase } from './database';

export async function generateYardInto(database: BenchDatabase, options: YardOptions): Promise<YardResult> {
  const { generateYard } = await import('../generator');
  const { execute } = await import('../../server/db');
  return database.use(async () => {
    const yard = await generateYard(options);
    if (ENGINE === 'postgres') await execute('VACUUM (ANALYZE)');
    return yard;
  });
}

// The staff board as a test reads it (GET /api/tasks with its ETag, issue 17) and a task's version in the
// database: for tests that check a change reached the board's shared answer.
import { eq } from 'drizzle-orm';
import { tasks } from '../../server/db/tables';
import { db, sleep, type TestUser, type liveServer } from './context';

export function boardReader(server: ReturnType<typeof liveServer>) {
  const board = (who: TestUser, etag?: string) => {
    const req = server.api().get('/api/tasks').set(who.auth);
    return etag ? req.set('If-None-Match', etag) : req;
  };
  return {
    board,
    /**
     * The board's ETag once it holds still: sockets just connected mark their drivers online meanwhile, and
     * on PostgreSQL a version read while a writer runs is not kept (services/board.ts) — both move it.
     */
    async settledEtag(who: TestUser): Promise<string> {
      for (let i = 0; i < 20; i++) {
        const etag = (await board(who)).headers.etag as string;
        if ((await board(who, etag)).status === 304) return etag;
        await sleep(50);
      }
      throw new Error('the board never held still');
    },
  };
}

export const versionOf = async (id: string): Promise<number> =>
  (await db.select({ version: tasks.version }).from(tasks).where(eq(tasks.id, id)))[0]!.version;

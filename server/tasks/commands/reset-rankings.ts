import { ne } from 'drizzle-orm';
import { TASK_LOG } from '@shared/labels';
import { db } from '../../db';
import { users, type UserRow } from '../../db/tables';
import { logActivity } from '../../services/activity';
import { change } from '../change';

/**
 * POST /admin/reset-rankings: every movements_count to 0. No task is written: the history (and so
 * analytics) is untouched.
 */
export async function resetRankings(actor: UserRow): Promise<void> {
  await change(async (fx) => {
    const reset = await db
      .update(users)
      .set({ movementsCount: 0 })
      .where(ne(users.movementsCount, 0))
      .returning({ id: users.id });
    await logActivity(
      'system',
      actor,
      TASK_LOG.rankingsReset.action,
      TASK_LOG.rankingsReset.details(reset.length),
    );
    fx.figuresChanged();
  });
}

// Escalation (CONTRACT §20): the server evaluates the three rules of shared/escalation.ts — after each task
// commit (coalesced: a burst of writes costs one evaluation), on each /test/clock advance before it
// answers, and every ESCALATION.everyMs (services/jobs.ts). The first time a task meets a rule a row of
// task_escalations (primary key task_id + rule) is inserted or ignored: the node whose insert lands writes
// the `task_escalated` notifications to every approved staff user, in the same transaction, so each task
// and rule is told once across nodes. The sockets and the Web Push follow from the change log's processors.
import { and, eq, isNotNull, lt, notExists, or, sql } from 'drizzle-orm';
import { ESCALATION } from '@shared/constants';
import { STAFF_ROLES, type EscalationRule } from '@shared/enums';
import { rulesMet, ruleText, type EscalationFacts } from '@shared/escalation';
import { ESCALATION_NOTICE } from '@shared/labels';
import { db, isDatabaseOpen } from '../db';
import { taskEscalations, tasks } from '../db/tables';
import { nowMs } from '../clock';
import { openTaskSql } from '../tasks/visibility';
import { commit } from '../changes/commit';
import { logger } from '../logger';
import { approvedUserIds } from './audience';
import { notifyEach } from './notifications';
import { pushEscalationSummaries } from './push';

/** Not yet escalated under `rule`. */
const notEscalated = (rule: EscalationRule) =>
  notExists(
    db
      .select({ one: sql`1` })
      .from(taskEscalations)
      .where(and(eq(taskEscalations.taskId, tasks.id), eq(taskEscalations.rule, rule))),
  );

/**
 * The tasks that may meet a rule they have not escalated under yet: one query on the open tasks (the
 * `tasks_status` index), the rules' own conditions in SQL so that a quiet yard reads nothing.
 */
async function candidates(at: number) {
  const waitedSince = new Date(at - ESCALATION.waitMs);
  const dueBefore = new Date(at + ESCALATION.dueWithinMs);
  return db
    .select({
      id: tasks.id,
      trailerId: tasks.trailerId,
      status: tasks.status,
      onHold: tasks.onHold,
      statusSince: tasks.statusSince,
      dueAt: tasks.dueAt,
    })
    .from(tasks)
    .where(
      and(
        openTaskSql,
        or(
          and(
            eq(tasks.status, 'bolsa_trabajo'),
            eq(tasks.onHold, false),
            lt(tasks.statusSince, waitedSince),
            notEscalated('espera'),
          ),
          and(
            eq(tasks.status, 'bolsa_trabajo'),
            isNotNull(tasks.dueAt),
            lt(tasks.dueAt, dueBefore),
            notEscalated('plazo'),
          ),
          and(
            eq(tasks.status, 'en_proceso'),
            isNotNull(tasks.dueAt),
            lt(tasks.dueAt, new Date(at)),
            notEscalated('retraso'),
          ),
        ),
      ),
    );
}

/**
 * One evaluation at the server's time: inserts the escalations that are new and notifies staff of the
 * ones this call's inserts landed (another node's concurrent insert of the same row is ignored here).
 * Resolves with how many escalations it made. The escalation Web Push owed to staff follows.
 */
export async function evaluateEscalations(): Promise<number> {
  const at = nowMs();
  const found = await candidates(at);
  let made = 0;
  if (found.length) {
    made = await commit(async (changes) => {
      let landed = 0;
      let staff: string[] | undefined;
      for (const task of found) {
        const facts: EscalationFacts = {
          status: task.status,
          onHold: task.onHold,
          statusSinceMs: task.statusSince.getTime(),
          dueAtMs: task.dueAt?.getTime() ?? null,
        };
        for (const rule of rulesMet(facts, at)) {
          const inserted = await db
            .insert(taskEscalations)
            .values({ taskId: task.id, rule, createdAt: changes.at })
            .onConflictDoNothing()
            .returning({ taskId: taskEscalations.taskId });
          if (inserted.length === 0) continue;
          landed++;
          staff ??= await approvedUserIds(STAFF_ROLES);
          await notifyEach(
            staff,
            'task_escalated',
            ESCALATION_NOTICE.title(task.trailerId),
            ruleText(rule, facts, at),
            {
              taskId: task.id,
            },
          );
        }
      }
      return landed;
    });
  }
  // Pushes held back by the one-a-minute limit go out once it allows (at least every ESCALATION.everyMs).
  await pushEscalationSummaries();
  return made;
}

// ---- When it runs ---------------------------------------------------------------------------------

let scheduled: NodeJS.Timeout | undefined;
let running: Promise<unknown> | undefined;
let again = false;

/** Runs an evaluation now, or once more after the running one; never rejects (failures are logged). */
export function evaluateSoon(): Promise<void> {
  if (running) {
    again = true;
    return running.then(() => undefined);
  }
  const run = (async () => {
    do {
      again = false;
      if (!isDatabaseOpen()) return;
      try {
        await evaluateEscalations();
      } catch (err) {
        logger.warn({ err }, 'no se pudo evaluar la escalada de tareas');
      }
    } while (again);
  })();
  running = run.finally(() => (running = undefined));
  return run;
}

/**
 * After a task commit (changes/processors/escalation.ts): one evaluation shortly after, whatever the
 * number of commits meanwhile.
 */
export function scheduleEvaluation(): void {
  if (scheduled) return;
  scheduled = setTimeout(() => {
    scheduled = undefined;
    void evaluateSoon();
  }, ESCALATION.afterCommitMs);
  scheduled.unref();
}

/** Shutdown (services/jobs.ts): no evaluation starts after it; resolves once the running one is done. */
export async function stopEvaluations(): Promise<void> {
  if (scheduled) clearTimeout(scheduled);
  scheduled = undefined;
  await running;
}

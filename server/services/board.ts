// GET /api/tasks for the staff's boards (issue 17): many identical screens — a control room's wall, every
// screen of a node that died resyncing on the survivors — share one query and one serialisation per
// board version, and a browser that already holds that version gets 304 (ETag, `Cache-Control:
// no-cache`). Drivers' lists are each their own (their types, their tasks) and are not shared.
//
// The version is read from the database, so it is the same on every node: the newest change of any task
// (tasks_updated: creations, moves, holds, deletions all set updated_at), the newest presence transition
// of any driver (assignee_online and its time are derived from users, not from the task; staff coming and
// going change nothing on a board), and the minute
// (the finished tasks of the last 24 h slide out of the board as time passes).
import crypto from 'node:crypto';
import type { Role } from '@shared/enums';
import { query } from '../db';
import { nowMs } from '../clock';
import type { UserRow } from '../db/tables';
import { listTasks } from './tasks';

/** Who sees the same board: admins and managers (finished tasks included), and gestores (without). */
type BoardClass = 'supervisors' | 'gestor';
const CLASS_OF: Partial<Record<Role, BoardClass>> = {
  admin: 'supervisors',
  manager: 'supervisors',
  gestor: 'gestor',
};

/** How long the sliding 24-hour window may lag: a finished task leaves the board within a minute. */
export const BOARD_WINDOW_STEP_MS = 60_000;

const VERSION_SQL = `SELECT (SELECT max(updated_at) FROM tasks) AS tasks_at,
  (SELECT max(last_activity_at) FROM users WHERE role = 'conductor') AS people_at`;

export interface SharedBoard {
  etag: string;
  /** The answer's JSON, computed once per version and class (on this node). */
  body: () => Promise<string>;
}

const answers = new Map<string, Promise<string>>();

/** The shared board of the user's class at the database's current version; undefined for a driver. */
export async function sharedBoard(user: UserRow): Promise<SharedBoard | undefined> {
  const cls = CLASS_OF[user.role];
  if (!cls) return undefined;
  const [v] = await query<{ tasks_at: number | null; people_at: number | null }>(VERSION_SQL);
  const version = `${cls}:${v?.tasks_at ?? 0}:${v?.people_at ?? 0}:${Math.floor(nowMs() / BOARD_WINDOW_STEP_MS)}`;
  const etag = `W/"${crypto.createHash('sha1').update(version).digest('base64url')}"`;
  return {
    etag,
    body: () => {
      let answer = answers.get(version);
      if (!answer) {
        // Read after the version: a change landing in between is in the answer, and the next request,
        // seeing a newer version, computes again. One version per class is kept.
        answer = listTasks(user).then((list) => JSON.stringify(list));
        for (const key of answers.keys()) if (key.startsWith(`${cls}:`)) answers.delete(key);
        answers.set(version, answer);
        void answer.catch(() => answers.delete(version));
      }
      return answer;
    },
  };
}

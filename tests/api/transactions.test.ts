// The transaction machinery (server/db/index.ts tx(), its savepoints) on both engines: what a failed step
// undoes and what it keeps, and what becomes of a statement sent ahead (sendAhead, appendRows: on
// PostgreSQL pipelined, its failure brought by what follows); on PostgreSQL also what goes over the wire —
// BEGIN and each SAVEPOINT leave with the next statement, a succeeded savepoint is never released, what
// one turn sends leaves in one write (server/db/postgres.ts).
import { beforeEach, describe, expect, it } from 'vitest';
import { like } from 'drizzle-orm';
import { activityLog } from '../../server/db/tables';
import { appendRows, execute, isPostgres } from '../../server/db';
import { db, makePunch, makeUser, now, setupApp, tx } from '../helpers/context';
import { messagesOf, socketWritesOf } from '../helpers/pg-messages';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
beforeEach(async () => {
  ({ api } = await setupApp());
});

const row = (action: string) => ({
  type: 'task' as const,
  userName: 'prueba',
  action,
  details: '',
  timestamp: now(),
});
const line = (action: string) => db.insert(activityLog).values(row(action));
// A row the database refuses: PostgreSQL "null value in column "action" …", SQLite "NOT NULL constraint
// failed: activity_log.action" — never "current transaction is aborted", nor a silent rollback. drizzle
// wraps it in its own error ("Failed query: …") when a query of its own brings it: its cause.
const refused = () => appendRows(activityLog, [row(null as unknown as string)]);
const refusedWith = async (work: Promise<unknown>) => {
  let err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  while ((err as { cause?: unknown }).cause) err = (err as { cause?: unknown }).cause;
  expect((err as Error).message).toMatch(/null/i);
};
const lines = async () =>
  (await db.select({ action: activityLog.action }).from(activityLog).where(like(activityLog.action, 'tx-%')))
    .map((r) => r.action)
    .sort();

const failing = async (work: () => Promise<unknown>) => {
  await expect(tx(work)).rejects.toThrow('paso fallido');
};

describe('transactions and their savepoints', () => {
  it('a failed step undoes only its own writes; the transaction goes on and commits', async () => {
    await tx(async () => {
      await line('tx-antes');
      await failing(async () => {
        await line('tx-deshecha');
        throw new Error('paso fallido');
      });
      await line('tx-despues');
    });
    expect(await lines()).toEqual(['tx-antes', 'tx-despues']);
  });

  it('a kept inner step is undone with the outer step that fails after it', async () => {
    await tx(async () => {
      await line('tx-fuera');
      await failing(async () => {
        await tx(() => line('tx-dentro'));
        await tx(async () => {
          await line('tx-mas-dentro');
        });
        throw new Error('paso fallido');
      });
      await tx(() => line('tx-siguiente'));
    });
    expect(await lines()).toEqual(['tx-fuera', 'tx-siguiente']);
  });

  it('a step that fails before any statement, and a failing statement, leave the rest intact', async () => {
    await tx(async () => {
      await failing(() => Promise.reject(new Error('paso fallido')));
      await expect(tx(() => execute('SELECT no_such_column FROM activity_log'))).rejects.toThrow();
      await line('tx-tras-el-error');
    });
    expect(await lines()).toEqual(['tx-tras-el-error']);
  });

  it('a rolled-back transaction keeps nothing, a transaction that ran nothing commits nothing', async () => {
    await failing(async () => {
      await line('tx-perdida');
      throw new Error('paso fallido');
    });
    const sent = await messagesOf(() => tx(async () => 1));
    expect(await lines()).toEqual([]);
    // PostgreSQL: no statement, so no BEGIN and no COMMIT either.
    expect(sent).toEqual([]);
  });

  it('a task creation sends BEGIN with its first savepoint and the round lock with its savepoint, releasing none', async () => {
    const gestor = await makeUser('gestor');
    const driver = await makeUser('conductor', { online: true });
    await makePunch(driver.user.id, 'entrada');
    const sent = await messagesOf(async () => {
      const res = await api()
        .post('/api/tasks')
        .set(gestor.auth)
        .send({ title: 'Mover', origin: 'Muelle 3', destination: 'Campa A-12', trailer_id: 'R-1000-TXN' });
      expect(res.status).toBe(201);
      expect(res.body.status).toBe('en_proceso');
      expect(res.body.assigned_to).toBe(driver.user.id);
    });
    if (!isPostgres) {
      expect(sent).toEqual([]);
      return;
    }
    expect(sent).toContain('BEGIN; SELECT pg_advisory_xact_lock_shared(1603); SAVEPOINT sp1');
    expect(sent).toContainEqual(
      expect.stringMatching(/^SAVEPOINT sp\d+; SELECT pg_advisory_xact_lock\(1601\)$/),
    );
    expect(sent.some((t) => t.includes('RELEASE'))).toBe(false);
  });

  it('what a transaction sends in one turn leaves in one write: BEGIN, two rows sent ahead and a read', async () => {
    const writes = await socketWritesOf(() =>
      tx(async () => {
        await appendRows(activityLog, [row('tx-primera')]);
        await appendRows(activityLog, [row('tx-segunda')]);
        expect(await lines()).toEqual(['tx-primera', 'tx-segunda']);
        await line('tx-tercera');
      }),
    );
    expect(await lines()).toEqual(['tx-primera', 'tx-segunda', 'tx-tercera']);
    if (!isPostgres) {
      expect(writes).toEqual([]);
      return;
    }
    // The transaction's connection (another one may have served something else meanwhile): its first
    // write carries BEGIN, both rows and the read; the next row its own write (the turn after the read's
    // answer); COMMIT a third.
    const mine = writes.filter((w) => w.some((bytes) => bytes.includes('tx-primera')));
    expect(mine).toHaveLength(1);
    const [first, second, third, ...rest] = mine[0]!;
    expect(first).toContain('BEGIN');
    expect(first).toContain('tx-primera');
    expect(first).toContain('tx-segunda');
    expect(first).not.toContain('tx-tercera');
    expect(second).toContain('tx-tercera');
    expect(third).toContain('COMMIT');
    expect(rest).toEqual([]);
  });

  it('a row sent ahead is there for the next statement of its transaction, and commits with it', async () => {
    await tx(async () => {
      await appendRows(activityLog, [row('tx-enviada')]);
      expect(await lines()).toEqual(['tx-enviada']);
    });
    expect(await lines()).toEqual(['tx-enviada']);
  });

  it('a row sent ahead and refused fails its transaction with its own error: at the next statement, at COMMIT', async () => {
    await refusedWith(
      tx(async () => {
        await line('tx-antes');
        await refused();
        await line('tx-despues');
      }),
    );
    await refusedWith(
      tx(async () => {
        await line('tx-antes');
        await refused();
      }),
    );
    expect(await lines()).toEqual([]);
  });

  it('a row sent ahead and refused within a step undoes that step only', async () => {
    await tx(async () => {
      await line('tx-antes');
      await refusedWith(
        tx(async () => {
          await line('tx-deshecha');
          await refused();
        }),
      );
      await line('tx-despues');
    });
    expect(await lines()).toEqual(['tx-antes', 'tx-despues']);
  });

  it('a transaction whose failure its work caught is never reported committed without its writes', async () => {
    const outcome = await tx(async () => {
      await line('tx-antes');
      await refused()
        .then(() => line('tx-despues'))
        .catch(() => {});
    }).then(
      () => 'committed',
      () => 'failed',
    );
    // SQLite goes on after a refused statement; PostgreSQL has given the transaction up, and its COMMIT
    // (answered as a ROLLBACK) fails.
    expect(outcome).toBe(isPostgres ? 'failed' : 'committed');
    expect(await lines()).toEqual(outcome === 'committed' ? ['tx-antes'] : []);
  });
});

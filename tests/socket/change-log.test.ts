// The change log (docs/TASKS.md › The change log): what any transaction records is pushed once it has
// committed and never otherwise; a savepoint that fails takes its changes with it, one that succeeds
// hands them to the transaction around it; outside a transaction a change is pushed at once.
import { describe, expect, it } from 'vitest';
import { record } from '../../server/changes/commit';
import { collect, liveServer, makeUser, nextMatching, sleep, tx } from '../helpers/context';

const server = liveServer();

/** Records a pending count (a change only admins hear: users:pending). */
const pending = (count: number) => record((changes) => changes.person({ kind: 'users-pending', count }));

describe('the change log', () => {
  it('pushes what a transaction recorded once it commits, in order, without what a failed savepoint recorded', async () => {
    const admin = await makeUser('admin');
    const socket = await server.connect(admin.token);
    const heard = collect(socket, 'users:pending');

    let beforeCommit: number[] = [];
    await tx(async () => {
      pending(101);
      await tx(async () => {
        pending(102);
        throw new Error('savepoint refused');
      }).catch(() => undefined);
      await tx(async () => pending(103));
      // Nothing leaves before the commit.
      await sleep(50);
      beforeCommit = heard.map((p) => p.count);
    });
    await nextMatching(socket, 'users:pending', (p) => p.count === 103);
    expect(beforeCommit).toEqual([]);
    expect(heard.map((p) => p.count)).toEqual([101, 103]);
  });

  it('pushes nothing of a transaction that throws', async () => {
    const admin = await makeUser('admin');
    const socket = await server.connect(admin.token);
    const heard = collect(socket, 'users:pending');

    await expect(
      tx(async () => {
        pending(201);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // A later change does arrive: had the first one been pushed, it would have arrived before it.
    const later = nextMatching(socket, 'users:pending', (p) => p.count === 202);
    await tx(async () => pending(202));
    await later;
    expect(heard.map((p) => p.count)).toEqual([202]);
  });

  it('outside a transaction, pushes at once', async () => {
    const admin = await makeUser('admin');
    const socket = await server.connect(admin.token);
    const heard = collect(socket, 'users:pending');

    const arrived = nextMatching(socket, 'users:pending', (p) => p.count === 301);
    pending(301);
    await arrived;
    expect(heard.map((p) => p.count)).toEqual([301]);
  });
});

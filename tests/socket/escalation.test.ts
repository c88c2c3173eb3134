// Escalation over the sockets (CONTRACT §20): a task due within 20 minutes escalates after its commit, and
// every approved staff user's screens hear the `task_escalated` notification; a driver's do not.
import { describe, expect, it } from 'vitest';
import { ESCALATION_NOTICE } from '@shared/labels';
import { formatTime } from '@shared/time';
import { collect, liveServer, makeUser, nextMatching, now } from '../helpers/context';

const server = liveServer();

describe('task_escalated over the sockets', () => {
  it('reaches every staff user, with the task and its texts; never a driver', async () => {
    const manager = await makeUser('manager');
    const gestor = await makeUser('gestor');
    const driver = await makeUser('conductor', { taskTypes: ['swap'] });
    const [m, g, d] = await Promise.all([manager, gestor, driver].map((u) => server.connect(u.token)));
    const driverHeard = collect(d, 'notification:new');
    const escalated = (socket: typeof m) =>
      nextMatching(socket, 'notification:new', (p) => p.notification.type === 'task_escalated', 5000);
    const heard = Promise.all([escalated(m), escalated(g)]);

    const due = new Date(now().getTime() + 10 * 60_000).toISOString();
    const task = await server.createTask(manager, { due_at: due, vehicle_type: 'swap' });
    for (const { notification } of await heard)
      expect(notification).toMatchObject({
        type: 'task_escalated',
        task_id: task.id,
        title: ESCALATION_NOTICE.title(task.trailer_id),
        message: `Vence a las ${formatTime(due)}`,
        is_read: false,
      });
    // The driver's socket: a later notification of its own proves nothing escalated went before it.
    const own = nextMatching(d, 'notification:new', (p) => p.notification.type === 'task_assigned', 5000);
    const put = await server
      .api()
      .put(`/api/tasks/${task.id}`)
      .set(manager.auth)
      .send({ assigned_to: driver.user.id });
    expect(put.status).toBe(200);
    await own;
    expect(driverHeard.map((p) => p.notification.type)).toEqual(['task_assigned']);
  });
});

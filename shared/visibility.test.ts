import { describe, expect, it } from 'vitest';
import { ROLES, TASK_STATUSES, VEHICLE_TYPES, type Role } from './enums';
import {
  boardClass,
  canSee,
  seesFinished,
  taskRooms,
  viewerRooms,
  type TaskPlace,
  type Viewer,
} from './visibility';

const viewers: Viewer[] = ROLES.flatMap((role: Role): Viewer[] =>
  role === 'conductor'
    ? [
        { id: 'd1', role, taskTypes: ['swap'] },
        { id: 'd2', role, taskTypes: ['semiremolque', 'semiremolque_out_km0'] },
      ]
    : [{ id: `${role}-1`, role, taskTypes: [] }],
);
const tasks: TaskPlace[] = TASK_STATUSES.flatMap((status) =>
  VEHICLE_TYPES.flatMap((vehicle_type) =>
    [null, 'd1', 'd2', 'admin-1'].map((assigned_to) => ({ status, vehicle_type, assigned_to })),
  ),
);

describe('one rule for who sees a task', () => {
  it('a task is pushed to exactly the sockets of the viewers canSee() lets see it', () => {
    for (const task of tasks)
      for (const viewer of viewers) {
        const shared = viewerRooms(viewer, 's').some((room) => taskRooms(task).includes(room));
        expect([task, viewer.id, shared]).toEqual([task, viewer.id, canSee(viewer, task)]);
      }
  });

  it('SPEC §6: gestor never sees a finished task; a driver sees their own and the pool of their types', () => {
    const gestor = viewers.find((v) => v.role === 'gestor')!;
    expect(canSee(gestor, { status: 'finalizada', vehicle_type: 'swap', assigned_to: null })).toBe(false);
    expect(seesFinished('gestor')).toBe(false);
    const d1 = viewers[0];
    expect(canSee(d1, { status: 'bolsa_trabajo', vehicle_type: 'swap', assigned_to: null })).toBe(true);
    expect(canSee(d1, { status: 'bolsa_trabajo', vehicle_type: 'semiremolque', assigned_to: null })).toBe(
      false,
    );
    expect(canSee(d1, { status: 'en_proceso', vehicle_type: 'swap', assigned_to: 'd2' })).toBe(false);
    expect(canSee(d1, { status: 'finalizada', vehicle_type: 'semiremolque', assigned_to: 'd1' })).toBe(true);
  });

  it('staff boards are shared by the classes that see the same tasks', () => {
    expect([
      boardClass('admin'),
      boardClass('manager'),
      boardClass('gestor'),
      boardClass('conductor'),
    ]).toEqual(['supervisors', 'supervisors', 'gestor', undefined]);
  });
});

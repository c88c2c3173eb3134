// /api/tasks: the board (staff), the driver's own endpoints, and the board's driver picker (CONTRACT §5).
import { Router } from 'express';
import {
  completeTaskSchema,
  createTaskSchema,
  listTasksQuerySchema,
  returnTaskSchema,
  updateTaskSchema,
  type MessageResponse,
} from '@shared/schemas';
import { TASK_MSG } from '@shared/labels';
import { currentPrincipal, currentUser, requireAuth } from '../http/auth';
import { parseBody, parseId, parseQuery } from '../http/validate';
import {
  completeByDriver,
  createOrRepeat,
  deleteTask,
  eligibleDrivers,
  listTasks,
  myActiveTask,
  returnByDriver,
  selfAssign,
  swapAvailable,
  tasksWithRef,
  updateTask,
  visibleTask,
} from '../tasks';
import { sharedBoard } from '../services/board';
import { sendShared } from '../http/shared-answer';

export const taskRoutes = Router();

const message = (text: string): MessageResponse => ({ message: text });

taskRoutes.get('/tasks', requireAuth('tasks:read'), async (req, res) => {
  const user = currentPrincipal(req);
  const { external_ref } = parseQuery(listTasksQuerySchema, req);
  if (external_ref) return void res.json(await tasksWithRef(user, external_ref));
  const board = await sharedBoard(user);
  if (!board) return void res.json(await listTasks(user));
  // A staff board: revalidated on every load, 304 while it has not changed (services/board.ts).
  await sendShared(req, res, board);
});

taskRoutes.post('/tasks', requireAuth('tasks:create'), async (req, res) => {
  const { task, created } = await createOrRepeat(parseBody(createTaskSchema, req), currentPrincipal(req));
  res.status(created ? 201 : 200).json(task);
});

taskRoutes.get('/tasks/my-active', requireAuth('driver:tasks'), async (req, res) => {
  res.json(await myActiveTask(currentUser(req).id));
});

taskRoutes.get('/tasks/swap-available', requireAuth('driver:tasks'), async (req, res) => {
  res.json(await swapAvailable(currentUser(req)));
});

taskRoutes.put('/tasks/:id', requireAuth('tasks:update'), async (req, res) => {
  const id = parseId(req);
  res.json(await updateTask(id, parseBody(updateTaskSchema, req), currentPrincipal(req)));
});

taskRoutes.delete('/tasks/:id', requireAuth('tasks:delete'), async (req, res) => {
  await deleteTask(parseId(req), currentPrincipal(req));
  res.json(message(TASK_MSG.deleted));
});

// After /tasks/my-active and /tasks/swap-available: an id is a UUID (parseId), those words are not.
taskRoutes.get('/tasks/:id', requireAuth('tasks:read'), async (req, res) => {
  res.json(await visibleTask(parseId(req), currentPrincipal(req)));
});

taskRoutes.get('/tasks/:id/eligible-drivers', requireAuth('tasks:eligible-drivers'), async (req, res) => {
  res.json(await eligibleDrivers(parseId(req)));
});

taskRoutes.post('/tasks/:id/self-assign', requireAuth('driver:tasks'), async (req, res) => {
  await selfAssign(parseId(req), currentUser(req));
  res.json(message(TASK_MSG.selfAssigned));
});

taskRoutes.post('/tasks/:id/complete', requireAuth('driver:tasks'), async (req, res) => {
  const id = parseId(req);
  const body = parseBody(completeTaskSchema, req);
  await completeByDriver(id, currentUser(req), {
    clientTime: body.client_time,
    proof: body.proof,
    locationId: body.location_id,
  });
  res.json(message(TASK_MSG.completed));
});

taskRoutes.post('/tasks/:id/return', requireAuth('driver:tasks'), async (req, res) => {
  const id = parseId(req);
  const body = parseBody(returnTaskSchema, req);
  await returnByDriver(id, currentUser(req), body.reason ?? null, body.client_time);
  res.json(message(TASK_MSG.returned));
});

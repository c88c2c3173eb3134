// /api/tasks: the board (staff), the driver's own endpoints, and the board's driver picker (CONTRACT §5).
import { Router } from 'express';
import {
  completeTaskSchema,
  createTaskSchema,
  returnTaskSchema,
  updateTaskSchema,
  type MessageResponse,
} from '@shared/schemas';
import { TASK_MSG } from '@shared/labels';
import { currentUser, requireAuth } from '../http/auth';
import { parseBody, parseId } from '../http/validate';
import {
  completeByDriver,
  createTask,
  deleteTask,
  eligibleDrivers,
  listTasks,
  myActiveTask,
  returnByDriver,
  selfAssign,
  swapAvailable,
  updateTask,
} from '../tasks';
import { sharedBoard } from '../services/board';
import { sendShared } from '../http/shared-answer';

export const taskRoutes = Router();

const message = (text: string): MessageResponse => ({ message: text });

taskRoutes.get('/tasks', requireAuth('tasks:read'), async (req, res) => {
  const user = currentUser(req);
  const board = await sharedBoard(user);
  if (!board) return void res.json(await listTasks(user));
  // A staff board: revalidated on every load, 304 while it has not changed (services/board.ts).
  await sendShared(req, res, board);
});

taskRoutes.post('/tasks', requireAuth('tasks:create'), async (req, res) => {
  res.status(201).json(await createTask(parseBody(createTaskSchema, req), currentUser(req)));
});

taskRoutes.get('/tasks/my-active', requireAuth('driver:tasks'), async (req, res) => {
  res.json(await myActiveTask(currentUser(req).id));
});

taskRoutes.get('/tasks/swap-available', requireAuth('driver:tasks'), async (req, res) => {
  res.json(await swapAvailable(currentUser(req)));
});

taskRoutes.put('/tasks/:id', requireAuth('tasks:update'), async (req, res) => {
  const id = parseId(req);
  res.json(await updateTask(id, parseBody(updateTaskSchema, req), currentUser(req)));
});

taskRoutes.delete('/tasks/:id', requireAuth('tasks:delete'), async (req, res) => {
  await deleteTask(parseId(req), currentUser(req));
  res.json(message(TASK_MSG.deleted));
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

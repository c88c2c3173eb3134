// The admin's user management (CONTRACT §4, §12, §14: admin only).
import { Router } from 'express';
import {
  approveUserSchema,
  sessionParams,
  updateRoleSchema,
  updateTaskTypesSchema,
  updateUserSchema,
} from '@shared/schemas';
import { currentUser, requireAuth } from '../http/auth';
import { parseBody, parseId } from '../http/validate';
import {
  changeRole,
  changeTaskTypes,
  decidePending,
  deleteUser,
  endUserSession,
  listPending,
  listUsers,
  resetPassword,
  updateUser,
  userSessions,
} from '../services/accounts';

export const adminUserRoutes = Router();
const admin = requireAuth('admin:users');

adminUserRoutes.get('/admin/pending-users', admin, async (_req, res) => {
  res.json(await listPending());
});

adminUserRoutes.post('/admin/approve-user', admin, async (req, res) => {
  const body = parseBody(approveUserSchema, req);
  res.json(await decidePending(currentUser(req), body.user_id, body.approved));
});

adminUserRoutes.get('/admin/users', admin, async (_req, res) => {
  res.json(await listUsers());
});

adminUserRoutes.put('/admin/users/:id', admin, async (req, res) => {
  res.json(await updateUser(currentUser(req), parseId(req), parseBody(updateUserSchema, req)));
});

adminUserRoutes.post('/admin/users/:id/reset-password', admin, async (req, res) => {
  res.json(await resetPassword(currentUser(req), parseId(req)));
});

adminUserRoutes.get('/admin/users/:id/sessions', admin, async (req, res) => {
  res.json(await userSessions(parseId(req), req.sessionId));
});

adminUserRoutes.delete('/admin/users/:id/sessions/:sid', admin, async (req, res) => {
  const { id, sid } = sessionParams.parse(req.params);
  res.json(await endUserSession(currentUser(req), id, sid));
});

adminUserRoutes.post('/admin/update-user-role', admin, async (req, res) => {
  const body = parseBody(updateRoleSchema, req);
  res.json(await changeRole(currentUser(req), body.user_id, body.new_role));
});

adminUserRoutes.post('/admin/update-user-task-types', admin, async (req, res) => {
  const body = parseBody(updateTaskTypesSchema, req);
  res.json(await changeTaskTypes(currentUser(req), body.user_id, body.task_types));
});

adminUserRoutes.delete('/admin/delete-user/:id', admin, async (req, res) => {
  res.json(await deleteUser(currentUser(req), parseId(req)));
});

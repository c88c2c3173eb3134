// The notifications store: a notice read elsewhere (`notifications:read`) leaves the unread list, so its
// banner and the bell's count go at once; the others stay as they were.
import { beforeEach, expect, it } from 'vitest';
import type { Notification } from '@shared/schemas';
import { selectUnread, useNotifications } from './notifications';

const notice = (id: string, is_read = false): Notification => ({
  id,
  type: 'user_pending',
  title: 'Nuevo usuario pendiente',
  message: `Aviso ${id}`,
  is_read,
  play_sound: false,
  task_id: null,
  created_at: '2026-11-22T08:00:00.000Z',
});

beforeEach(() => {
  useNotifications.setState({ items: [notice('a'), notice('b'), notice('c', true)], loaded: true });
});

it('marks only the notices read elsewhere, keeping them in the list', () => {
  useNotifications.getState().readElsewhere(['a', 'unknown']);
  const { items } = useNotifications.getState();
  expect(items.map((n) => [n.id, n.is_read])).toEqual([
    ['a', true],
    ['b', false],
    ['c', true],
  ]);
  expect(selectUnread(useNotifications.getState()).map((n) => n.id)).toEqual(['b']);
});

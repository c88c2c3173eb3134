import type { NotificationType } from '../enums';

export interface Notification {
  id: string;
  type: NotificationType;
  title: string;
  message: string;
  is_read: boolean;
  play_sound: boolean;
  task_id: string | null;
  created_at: string;
}

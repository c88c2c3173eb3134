// Error toasts per SPEC §8: the server's detail, else the fallback; silent when the error ended the
// session (the user is being sent to /login, "401 is silent").
import { toast } from 'sonner';
import { ApiError, errorText } from './api';

export function toastError(err: unknown, fallback: string): void {
  if (err instanceof ApiError && err.sessionEnded) return;
  toast.error(errorText(err, fallback));
}

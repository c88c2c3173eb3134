import { useState, type FormEvent } from 'react';
import { ArrowLeft, KeyRound } from 'lucide-react';
import { toast } from 'sonner';
import { ERR, TOAST, UI_CHANGE_PASSWORD } from '@shared/labels';
import { changePasswordSchema } from '@shared/schemas';
import { ApiError, errorText } from '../../api';
import { Button } from '../../components/Button';
import { TextField } from '../../components/Field';
import { useSession } from '../../stores/session';
import { FormAlert } from '../../components/FormAlert';

const T = UI_CHANGE_PASSWORD;

interface Errors {
  password?: string;
  repeat?: string;
  /** The server's 400 detail (CONTRACT §14 password rules, same password…). */
  form?: string;
}

/**
 * CONTRACT §14: the login answered `password_change_required`. The current password is the temporary
 * one just typed (kept by the session store, not shown); the new one follows the shared `newPassword`
 * rules. The change answers like a login: the session starts (socket, dashboard) only then.
 */
export function ChangePasswordForm() {
  const pending = useSession((s) => s.passwordChange);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  if (!pending) return null;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy || !pending) return;
    const input = { current_password: pending.currentPassword, new_password: password };
    const parsed = changePasswordSchema.safeParse(input);
    const found: Errors = {};
    if (!parsed.success) found.password = parsed.error.issues[0].message;
    else if (password === pending.currentPassword) found.password = ERR.samePassword;
    if (repeat !== password) found.repeat = T.mismatch;
    if (found.password || found.repeat || !parsed.success) return setErrors(found);

    setErrors({});
    setBusy(true);
    try {
      await useSession.getState().changePassword(parsed.data);
      toast.success(TOAST.passwordChanged);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && err.detail) setErrors({ form: err.detail });
      // A 401 (the change-only token was revoked meanwhile) has dropped the change: back to login.
      else toast.error(errorText(err, TOAST.changePasswordError));
      setBusy(false);
    }
  }

  return (
    <div className="space-y-5">
      <div className="space-y-2 text-center">
        <div className="mx-auto grid size-14 place-items-center rounded-full bg-amber-100 text-amber-600">
          <KeyRound aria-hidden className="size-7" />
        </div>
        <h2 className="text-xl font-semibold text-slate-900">{T.title}</h2>
        <p className="text-sm text-slate-600">{T.message}</p>
        <p className="break-all font-medium text-slate-800">{pending.user.email}</p>
      </div>
      <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
        {/* For password managers: which account the new password belongs to. */}
        <input
          type="email"
          name="username"
          autoComplete="username"
          value={pending.user.email}
          readOnly
          hidden
        />
        <TextField
          label={T.newPassword}
          name="new-password"
          type="password"
          autoComplete="new-password"
          autoFocus
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            if (errors.password || errors.form)
              setErrors((x) => ({ ...x, password: undefined, form: undefined }));
          }}
          error={errors.password}
          hint={T.hint}
        />
        <TextField
          label={T.repeat}
          name="repeat-password"
          type="password"
          autoComplete="new-password"
          value={repeat}
          onChange={(e) => {
            setRepeat(e.target.value);
            if (errors.repeat) setErrors((x) => ({ ...x, repeat: undefined }));
          }}
          error={errors.repeat}
        />
        {errors.form && <FormAlert>{errors.form}</FormAlert>}
        <Button type="submit" size="lg" loading={busy} className="w-full">
          {busy ? T.submitting : T.submit}
        </Button>
        <Button
          variant="ghost"
          size="lg"
          className="w-full"
          disabled={busy}
          onClick={() => useSession.getState().cancelPasswordChange()}
        >
          <ArrowLeft aria-hidden className="size-4" />
          {T.back}
        </Button>
      </form>
    </div>
  );
}

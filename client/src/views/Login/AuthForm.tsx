import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ROLES, type Role } from '@shared/enums';
import { ROLE_LABELS, TOAST, UI_LOGIN } from '@shared/labels';
import { loginSchema, registerSchema } from '@shared/schemas';
import { ApiError, errorText } from '../../api';
import { Button } from '../../components/Button';
import { Field, TextField } from '../../components/Field';
import { Select } from '../../components/Select';
import { useSession } from '../../stores/session';

export type AuthMode = 'login' | 'register';
type FieldName = 'name' | 'email' | 'password' | 'role';
type Errors = Partial<Record<FieldName, string>>;

const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }));

interface AuthFormProps {
  mode: AuthMode;
  /** Registration accepted, or a login refused because the account still waits for approval. */
  onPending: (email: string) => void;
}

/** SPEC §2 login/register form, validated with the same zod schemas the server uses (SPEC §5). */
export function AuthForm({ mode, onPending }: AuthFormProps) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('conductor');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [shownMode, setShownMode] = useState(mode);
  if (shownMode !== mode) {
    // Switching login ↔ register keeps what was typed but drops the other mode's messages.
    setShownMode(mode);
    setErrors({});
  }
  const register = mode === 'register';

  const edit =
    <T,>(setter: (v: T) => void, field: FieldName) =>
    (v: T) => {
      setter(v);
      if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
    };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const parsed = register
      ? registerSchema.safeParse({ name, email, password, role })
      : loginSchema.safeParse({ email, password });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as FieldName;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      if (register) {
        const res = await useSession
          .getState()
          .register(registerSchema.parse({ name, email, password, role }));
        if (res.status === 'pending_approval') {
          toast.success(TOAST.registerPending);
          onPending(res.user.email);
        } else toast.success(TOAST.registerOk);
      } else {
        const res = await useSession.getState().login(loginSchema.parse({ email, password }));
        // password_change_required: the login screen now shows the change form (CONTRACT §14).
        if (res.status === 'approved') toast.success(TOAST.loginOk);
      }
    } catch (err) {
      if (err instanceof ApiError && err.detail?.includes(UI_LOGIN.pendingMarker)) {
        toast.info(TOAST.pendingApproval);
        onPending(email.trim().toLowerCase());
      } else toast.error(errorText(err, register ? TOAST.registerError : TOAST.loginError));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      {register && (
        <TextField
          label={UI_LOGIN.name}
          name="name"
          autoComplete="name"
          placeholder={UI_LOGIN.namePlaceholder}
          value={name}
          onChange={(e) => edit(setName, 'name')(e.target.value)}
          error={errors.name}
        />
      )}
      <TextField
        label={UI_LOGIN.email}
        name="email"
        type="email"
        inputMode="email"
        autoComplete={register ? 'email' : 'username'}
        placeholder={UI_LOGIN.emailPlaceholder}
        value={email}
        onChange={(e) => edit(setEmail, 'email')(e.target.value)}
        error={errors.email}
      />
      <TextField
        label={UI_LOGIN.password}
        name="password"
        type="password"
        autoComplete={register ? 'new-password' : 'current-password'}
        placeholder={UI_LOGIN.passwordPlaceholder}
        value={password}
        onChange={(e) => edit(setPassword, 'password')(e.target.value)}
        error={errors.password}
      />
      {register && (
        <Field label={UI_LOGIN.role} error={errors.role}>
          {({ id }) => (
            <Select id={id} value={role} onChange={edit(setRole, 'role')} options={ROLE_OPTIONS} />
          )}
        </Field>
      )}
      <Button type="submit" size="lg" loading={busy} className="w-full">
        {busy
          ? register
            ? UI_LOGIN.submittingRegister
            : UI_LOGIN.submittingLogin
          : register
            ? UI_LOGIN.submitRegister
            : UI_LOGIN.submitLogin}
      </Button>
    </form>
  );
}

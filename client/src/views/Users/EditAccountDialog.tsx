import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { TOAST, UI_COMMON, UI_USERS } from '@shared/labels';
import { email as emailSchema, personName, type AdminUser, type UpdateUserInput } from '@shared/schemas';
import { ApiError } from '../../api';
import { Button } from '../../components/Button';
import { TextField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { useSession } from '../../stores/session';
import { useUsers } from '../../stores/users';
import { toastError } from '../../toast';

const T = UI_USERS.editDialog;

interface Errors {
  name?: string;
  email?: string;
}

/**
 * CONTRACT §14 `PUT /admin/users/{id}`: the admin corrects a user's name or email. Only what changed
 * is sent, normalised by the same schemas the server uses; a taken email (409) is shown on its field.
 */
export function EditAccountDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const formId = useId();
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const unchanged = name === user.name && email === user.email;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy || unchanged) return;
    const n = personName.safeParse(name);
    const m = emailSchema.safeParse(email);
    const found: Errors = {
      name: n.success ? undefined : n.error.issues[0].message,
      email: m.success ? undefined : m.error.issues[0].message,
    };
    if (!n.success || !m.success) return setErrors(found);
    const changes: UpdateUserInput = {};
    if (n.data !== user.name) changes.name = n.data;
    if (m.data !== user.email) changes.email = m.data;
    // Only spaces or letter case differed: the stored values already are these.
    if (changes.name === undefined && changes.email === undefined) return onClose();

    setErrors({});
    setBusy(true);
    try {
      const updated = await useUsers.getState().update(user.id, changes);
      if (updated.id === useSession.getState().user?.id)
        useSession.getState().updateUser({ name: updated.name, email: updated.email });
      toast.success(T.saved(updated.name));
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409 && err.detail) setErrors({ email: err.detail });
      else toastError(err, TOAST.editUserError);
      setBusy(false);
    }
  }

  const edit = (setter: (v: string) => void, field: keyof Errors) => (v: string) => {
    setter(v);
    if (errors[field]) setErrors((x) => ({ ...x, [field]: undefined }));
  };

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      dismissible={!busy}
      title={T.title}
      description={T.description(user.name)}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {UI_COMMON.cancel}
          </Button>
          <Button type="submit" form={formId} disabled={unchanged} loading={busy}>
            {T.confirm}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
        <TextField
          label={T.name}
          name="name"
          autoComplete="off"
          value={name}
          disabled={busy}
          onChange={(e) => edit(setName, 'name')(e.target.value)}
          error={errors.name}
        />
        <TextField
          label={T.email}
          name="email"
          type="email"
          inputMode="email"
          autoComplete="off"
          value={email}
          disabled={busy}
          onChange={(e) => edit(setEmail, 'email')(e.target.value)}
          error={errors.email}
          hint={T.emailHint}
        />
      </form>
    </Modal>
  );
}

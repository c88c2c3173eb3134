// Sistema → Integraciones › Claves de API (CONTRACT §21): create a key (shown once, with a copy button),
// the list, revoke with a confirmation.
import { useEffect, useState, type FormEvent } from 'react';
import { KeyRound, Plus } from 'lucide-react';
import { toast } from 'sonner';
import { API_SCOPES, type ApiScope } from '@shared/enums';
import type { ApiClient, ApiClientCreated } from '@shared/schemas';
import { API_SCOPE_LABELS, UI_COMMON, UI_INTEGRATIONS } from '@shared/labels';
import { formatDateTime } from '@shared/time';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { TextField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { useApiClients } from '../../stores/apiClients';
import { errorText } from '../../api';
import { toastError } from '../../toast';
import { CodeChecklist } from './CodeChecklist';
import { ShownOnceDialog } from './ShownOnceDialog';

const T = UI_INTEGRATIONS;

export function ApiKeysPanel() {
  const { clients, failed, load, revoke } = useApiClients();
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<ApiClientCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiClient | null>(null);
  useEffect(() => void load(), [load]);

  const confirmRevoke = async () => {
    try {
      await revoke(revoking!.id);
      toast.success(T.keys.revoked);
    } catch (err) {
      toastError(err, T.keys.revokeError);
      throw err;
    }
  };

  return (
    <Card
      title={T.keys.title}
      icon={<KeyRound aria-hidden className="size-4" />}
      actions={
        <Button size="sm" onClick={() => setCreating(true)}>
          <Plus aria-hidden className="size-4" />
          {T.keys.create}
        </Button>
      }
    >
      <p className="mb-3 text-sm text-slate-500">{T.keys.subtitle}</p>
      {failed && <p className="text-sm text-red-700">{T.keys.loadError}</p>}
      {clients && clients.length === 0 && <p className="text-sm text-slate-500">{T.keys.empty}</p>}
      {clients && clients.length > 0 && (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-slate-500 uppercase">
              <tr>
                <th className="py-2 pr-3">{T.keys.columns.name}</th>
                <th className="py-2 pr-3">{T.keys.columns.prefix}</th>
                <th className="py-2 pr-3">{T.keys.columns.scopes}</th>
                <th className="py-2 pr-3">{T.keys.columns.createdBy}</th>
                <th className="py-2 pr-3">{T.keys.columns.lastUsed}</th>
                <th className="py-2" />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {clients.map((c) => (
                <tr key={c.id}>
                  <td className="py-2 pr-3 font-medium text-slate-900">{c.name}</td>
                  <td className="py-2 pr-3 font-mono text-xs">{c.key_prefix}…</td>
                  <td className="py-2 pr-3">
                    <ul className="flex flex-wrap gap-1">
                      {c.scopes.map((s) => (
                        <li
                          key={s}
                          title={API_SCOPE_LABELS[s]}
                          className="rounded bg-slate-100 px-1.5 font-mono text-xs"
                        >
                          {s}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td className="py-2 pr-3">{c.created_by_name}</td>
                  <td className="py-2 pr-3 tabular-nums">
                    {c.last_used_at ? formatDateTime(c.last_used_at) : T.keys.neverUsed}
                  </td>
                  <td className="py-2 text-right">
                    <Button size="sm" variant="danger" onClick={() => setRevoking(c)}>
                      {T.keys.revoke}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <CreateKeyDialog
        open={creating}
        onOpenChange={setCreating}
        onCreated={(created) => {
          setCreating(false);
          setShown(created);
        }}
      />
      <ShownOnceDialog
        secret={shown?.key ?? null}
        title={T.keyShown.title}
        warning={T.keyShown.warning}
        testId="api-key"
        onClose={() => setShown(null)}
      />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={T.keys.revokeTitle}
        message={revoking ? T.keys.revokeMessage(revoking.name) : ''}
        confirmLabel={T.keys.revoke}
        onConfirm={confirmRevoke}
      />
    </Card>
  );
}

function CreateKeyDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (created: ApiClientCreated) => void;
}) {
  const create = useApiClients((s) => s.create);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiScope[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    setName('');
    setScopes([]);
    setError(null);
  }, [open]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      onCreated(await create(name, scopes));
    } catch (err) {
      setError(errorText(err, T.createDialog.error));
    } finally {
      setBusy(false);
    }
  };
  const toggle = (scope: ApiScope, on: boolean) =>
    setScopes((now) => (on ? [...now, scope] : now.filter((s) => s !== scope)));

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={T.createDialog.title}
      dismissible={!busy}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={busy}>
            {UI_COMMON.cancel}
          </Button>
          <Button type="submit" form="api-key-form" loading={busy}>
            {T.createDialog.submit}
          </Button>
        </>
      }
    >
      <form id="api-key-form" onSubmit={(e) => void submit(e)} className="space-y-4">
        <TextField
          label={T.createDialog.name}
          placeholder={T.createDialog.namePlaceholder}
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
        />
        <fieldset className="space-y-2">
          <legend className="mb-1 text-sm font-medium text-slate-700">{T.createDialog.scopes}</legend>
          <CodeChecklist
            codes={API_SCOPES}
            labels={API_SCOPE_LABELS}
            checked={scopes}
            onToggle={toggle}
            className="space-y-2"
          />
        </fieldset>
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
      </form>
    </Modal>
  );
}

// Sistema → Integraciones › Webhooks (CONTRACT §21): create (the secret shown once), edit, test with a
// ping, watch the last 100 deliveries and retry one, renew the secret, delete.
import { useEffect, useState, type FormEvent } from 'react';
import { Plus, Webhook as WebhookIcon } from 'lucide-react';
import { toast } from 'sonner';
import { WEBHOOK_EVENTS, type WebhookEvent } from '@shared/enums';
import type { Webhook, WebhookDelivery } from '@shared/schemas';
import { UI_COMMON, UI_WEBHOOKS, WEBHOOK_EVENT_LABELS, WEBHOOK_STATUS_LABELS } from '@shared/labels';
import { formatDateTime } from '@shared/time';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { TextField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { errorText } from '../../api';
import { useWebhooks, type WebhookDraft } from '../../stores/webhooks';
import { toastError } from '../../toast';
import { CodeChecklist } from './CodeChecklist';
import { ShownOnceDialog } from './ShownOnceDialog';

const T = UI_WEBHOOKS;

/** What a confirmation is about. */
type Pending = { kind: 'remove' | 'rotate'; hook: Webhook };

export function WebhooksPanel() {
  const { hooks, failed, load } = useWebhooks();
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [watching, setWatching] = useState<Webhook | null>(null);
  useEffect(() => void load(), [load]);

  const test = async (hook: Webhook) => {
    try {
      const r = await useWebhooks.getState().test(hook.id);
      const text = T.tested(r.status_code, r.duration_ms);
      if (r.status_code !== null && r.status_code < 300) toast.success(text);
      else toast.error(r.error ? `${text}: ${r.error}` : text);
    } catch (err) {
      toastError(err, T.testError);
    }
  };
  const confirm = async () => {
    const { kind, hook } = pending!;
    try {
      if (kind === 'remove') {
        await useWebhooks.getState().remove(hook.id);
        toast.success(T.removed);
      } else setSecret((await useWebhooks.getState().rotate(hook.id)).secret);
    } catch (err) {
      toastError(err, kind === 'remove' ? T.removeError : T.rotateError);
      throw err;
    }
  };

  return (
    <Card
      title={T.title}
      icon={<WebhookIcon aria-hidden className="size-4" />}
      actions={
        <Button size="sm" onClick={() => setEditing('new')}>
          <Plus aria-hidden className="size-4" />
          {T.create}
        </Button>
      }
    >
      <p className="mb-3 text-sm text-slate-500">{T.subtitle}</p>
      {failed && <p className="text-sm text-red-700">{T.loadError}</p>}
      {hooks && hooks.length === 0 && <p className="text-sm text-slate-500">{T.empty}</p>}
      {hooks && hooks.length > 0 && (
        <ul className="divide-y divide-slate-100">
          {hooks.map((hook) => (
            <li key={hook.id} data-testid="webhook" className="flex flex-wrap items-center gap-3 py-3">
              <div className="min-w-0 flex-1">
                <p className="font-mono text-sm break-all text-slate-900">{hook.url}</p>
                <p className="mt-0.5 flex flex-wrap items-center gap-2 text-xs text-slate-500">
                  <HookState hook={hook} />
                  <span title={hook.events.map((e) => WEBHOOK_EVENT_LABELS[e]).join('\n')}>
                    {T.events(hook.events.length)}
                  </span>
                  {hook.description && <span className="truncate">{hook.description}</span>}
                </p>
              </div>
              <div className="flex flex-wrap gap-1.5">
                <Button size="sm" variant="secondary" onClick={() => void test(hook)}>
                  {T.test}
                </Button>
                <Button size="sm" variant="secondary" onClick={() => setWatching(hook)}>
                  {T.deliveries}
                </Button>
                <Button size="sm" variant="secondary" onClick={() => setEditing(hook)}>
                  {T.edit}
                </Button>
                <Button size="sm" variant="secondary" onClick={() => setPending({ kind: 'rotate', hook })}>
                  {T.rotate}
                </Button>
                <Button size="sm" variant="danger" onClick={() => setPending({ kind: 'remove', hook })}>
                  {T.remove}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <WebhookForm
        editing={editing}
        onClose={() => setEditing(null)}
        onCreated={(made) => {
          setEditing(null);
          setSecret(made);
        }}
      />
      <ShownOnceDialog
        secret={secret}
        title={T.secretShown.title}
        warning={T.secretShown.warning}
        testId="webhook-secret"
        onClose={() => setSecret(null)}
      />
      <DeliveriesDialog hook={watching} onClose={() => setWatching(null)} />
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={pending?.kind === 'rotate' ? T.rotateTitle : T.removeTitle}
        message={
          pending ? (pending.kind === 'rotate' ? T.rotateMessage : T.removeMessage(pending.hook.url)) : ''
        }
        confirmLabel={pending?.kind === 'rotate' ? T.rotate : T.remove}
        onConfirm={confirm}
      />
    </Card>
  );
}

function HookState({ hook }: { hook: Webhook }) {
  if (hook.disabled_at) return <Badge tone="red">{T.disabled(formatDateTime(hook.disabled_at))}</Badge>;
  if (!hook.active) return <Badge tone="slate">{T.inactive}</Badge>;
  if (hook.failing_since)
    return <Badge tone="amber">{T.failingSince(formatDateTime(hook.failing_since))}</Badge>;
  return <Badge tone="green">{T.active}</Badge>;
}

const emptyDraft = (): WebhookDraft => ({
  url: '',
  description: '',
  events: [...WEBHOOK_EVENTS],
  active: true,
});

function WebhookForm({
  editing,
  onClose,
  onCreated,
}: {
  editing: Webhook | 'new' | null;
  onClose: () => void;
  /** A new webhook's secret, to show once. */
  onCreated: (secret: string) => void;
}) {
  const [draft, setDraft] = useState<WebhookDraft>(emptyDraft);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!editing) return;
    setError(null);
    setDraft(
      editing === 'new'
        ? emptyDraft()
        : {
            url: editing.url,
            description: editing.description ?? '',
            events: editing.events,
            active: editing.active,
          },
    );
  }, [editing]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const store = useWebhooks.getState();
      if (editing === 'new') onCreated((await store.create(draft)).secret);
      else {
        await store.update(editing!.id, draft);
        toast.success(T.form.saved);
        onClose();
      }
    } catch (err) {
      setError(errorText(err, T.form.error));
    } finally {
      setBusy(false);
    }
  };
  const toggle = (event: WebhookEvent, on: boolean) =>
    setDraft((d) => ({
      ...d,
      events: on
        ? WEBHOOK_EVENTS.filter((e) => e === event || d.events.includes(e))
        : d.events.filter((e) => e !== event),
    }));
  const all = draft.events.length === WEBHOOK_EVENTS.length;

  return (
    <Modal
      open={editing !== null}
      onOpenChange={(open) => !open && onClose()}
      title={editing === 'new' ? T.form.createTitle : T.form.editTitle}
      dismissible={!busy}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {UI_COMMON.cancel}
          </Button>
          <Button type="submit" form="webhook-form" loading={busy}>
            {editing === 'new' ? T.form.submitCreate : T.form.submitEdit}
          </Button>
        </>
      }
    >
      <form id="webhook-form" onSubmit={(e) => void submit(e)} className="space-y-4">
        <TextField
          label={T.form.url}
          placeholder={T.form.urlPlaceholder}
          value={draft.url}
          onChange={(e) => setDraft((d) => ({ ...d, url: e.target.value }))}
          required
        />
        <TextField
          label={T.form.description}
          value={draft.description}
          onChange={(e) => setDraft((d) => ({ ...d, description: e.target.value }))}
        />
        {editing !== 'new' && (
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={draft.active}
              onChange={(e) => setDraft((d) => ({ ...d, active: e.target.checked }))}
              className="size-4"
            />
            {T.form.active}
          </label>
        )}
        <fieldset>
          <legend className="mb-1 flex items-center gap-3 text-sm font-medium text-slate-700">
            {T.form.events}
            <label className="flex items-center gap-1.5 font-normal">
              <input
                type="checkbox"
                checked={all}
                onChange={(e) =>
                  setDraft((d) => ({ ...d, events: e.target.checked ? [...WEBHOOK_EVENTS] : [] }))
                }
                className="size-4"
              />
              {T.form.all}
            </label>
          </legend>
          <CodeChecklist
            codes={WEBHOOK_EVENTS}
            labels={WEBHOOK_EVENT_LABELS}
            checked={draft.events}
            onToggle={toggle}
            className="grid grid-cols-1 gap-x-4 gap-y-1.5 sm:grid-cols-2"
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

const STATUS_TONE = { pending: 'amber', delivered: 'green', failed: 'red' } as const;

function DeliveriesDialog({ hook, onClose }: { hook: Webhook | null; onClose: () => void }) {
  const D = T.deliveriesDialog;
  const [rows, setRows] = useState<WebhookDelivery[] | null>(null);
  const [failed, setFailed] = useState(false);
  const read = async (id: string) => {
    try {
      setRows(await useWebhooks.getState().deliveries(id));
      setFailed(false);
    } catch {
      setFailed(true);
    }
  };
  useEffect(() => {
    setRows(null);
    if (hook) void read(hook.id);
  }, [hook]);
  const retry = async (d: WebhookDelivery) => {
    try {
      await useWebhooks.getState().retry(d.id);
      toast.success(D.retried);
      await read(hook!.id);
    } catch (err) {
      toastError(err, D.retryError);
    }
  };

  return (
    <Modal
      open={hook !== null}
      onOpenChange={(open) => !open && onClose()}
      title={hook ? D.title(hook.url) : ''}
      size="xl"
      footer={<Button onClick={onClose}>{UI_COMMON.close}</Button>}
    >
      {failed && <p className="text-sm text-red-700">{D.loadError}</p>}
      {rows && rows.length === 0 && <p className="text-sm text-slate-500">{D.empty}</p>}
      {rows && rows.length > 0 && (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-slate-500 uppercase">
              <tr>
                <th className="py-2 pr-3">{D.columns.event}</th>
                <th className="py-2 pr-3">{D.columns.status}</th>
                <th className="py-2 pr-3">{D.columns.attempts}</th>
                <th className="py-2 pr-3">{D.columns.code}</th>
                <th className="py-2 pr-3">{D.columns.error}</th>
                <th className="py-2 pr-3">{D.columns.created}</th>
                <th className="py-2" />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((d) => (
                <tr key={d.id} data-testid="webhook-delivery" data-status={d.status}>
                  <td className="py-2 pr-3" title={d.type}>
                    {WEBHOOK_EVENT_LABELS[d.type]}
                  </td>
                  <td className="py-2 pr-3">
                    <Badge tone={STATUS_TONE[d.status]}>{WEBHOOK_STATUS_LABELS[d.status]}</Badge>
                  </td>
                  <td className="py-2 pr-3 tabular-nums">{d.attempts}</td>
                  <td className="py-2 pr-3 tabular-nums">{d.last_status_code ?? '—'}</td>
                  <td className="py-2 pr-3 text-xs text-slate-600">{d.last_error ?? ''}</td>
                  <td className="py-2 pr-3 tabular-nums">{formatDateTime(d.created_at)}</td>
                  <td className="py-2 text-right">
                    {d.status !== 'pending' && (
                      <Button size="sm" variant="secondary" onClick={() => void retry(d)}>
                        {D.retry}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Modal>
  );
}

// A secret shown this once (an API key, a webhook's signing secret, CONTRACT §21): the warning, the secret
// and a copy button; closing the dialog forgets it.
import { Copy } from 'lucide-react';
import { toast } from 'sonner';
import { UI_INTEGRATIONS } from '@shared/labels';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';

const T = UI_INTEGRATIONS.shownOnce;

export function ShownOnceDialog({
  secret,
  title,
  warning,
  testId,
  onClose,
}: {
  /** The secret; null: the dialog is closed. */
  secret: string | null;
  title: string;
  warning: string;
  testId: string;
  onClose: () => void;
}) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret!);
      toast.success(T.copied);
    } catch {
      toast.error(T.copyError);
    }
  };
  return (
    <Modal
      open={secret !== null}
      onOpenChange={(open) => !open && onClose()}
      title={title}
      footer={<Button onClick={onClose}>{T.done}</Button>}
    >
      <p className="mb-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
        {warning}
      </p>
      <div className="flex items-center gap-2">
        <code
          data-testid={testId}
          className="min-w-0 flex-1 rounded bg-slate-100 p-2 font-mono text-xs break-all"
        >
          {secret}
        </code>
        <Button variant="secondary" onClick={() => void copy()}>
          <Copy aria-hidden className="size-4" />
          {T.copy}
        </Button>
      </div>
    </Modal>
  );
}

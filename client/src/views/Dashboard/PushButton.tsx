import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { BellPlus } from 'lucide-react';
import { PUSH_UI } from '@shared/labels';
import { Button } from '../../components/Button';
import { enablePush, failureText, pushSupport, syncPushSubscription } from '../../pwa/push';

/** Offered while this browser can take pushes and has not been asked yet. */
const offered = () => pushSupport() === 'supported' && Notification.permission === 'default';

/**
 * Staff's `Activar avisos` (CONTRACT §23): a header icon, shown only while the browser has not been asked;
 * once notifications are allowed the subscription is renewed quietly, as on the driver's screen. A refusal
 * hides it (the browser's settings are where that is undone); a failure leaves it to try again.
 */
export function PushButton() {
  const [shown, setShown] = useState(offered);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (pushSupport() === 'supported' && Notification.permission === 'granted') void syncPushSubscription();
  }, []);

  if (!shown) return null;
  const enable = async () => {
    setBusy(true);
    try {
      const outcome = await enablePush();
      if (outcome.status === 'subscribed') toast.success(outcome.message);
      else if (outcome.status === 'denied') toast.error(PUSH_UI.deniedTitle);
      else if (outcome.status === 'failed') toast.error(failureText(outcome));
      // Done, or refused for good; a dismissed prompt or a failure may be tried again.
      if (outcome.status === 'subscribed' || outcome.status === 'denied') setShown(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="header"
      size="sm"
      className="size-9 px-0"
      loading={busy}
      aria-label={PUSH_UI.staffEnable}
      title={PUSH_UI.staffEnable}
      onClick={() => void enable()}
    >
      {!busy && <BellPlus aria-hidden className="size-5" />}
    </Button>
  );
}

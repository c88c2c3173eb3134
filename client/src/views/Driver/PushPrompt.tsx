import { useEffect, useRef, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { BellOff, BellRing, Smartphone } from 'lucide-react';
import { PUSH_UI } from '@shared/labels';
import { Button } from '../../components/Button';
import { enablePush, failureText, pushSupport, syncPushSubscription } from '../../pwa/push';
import { useReachability } from '../../offline/reachability';
import { prefs } from '../../storage';

/** What this phone remembers having been closed for good (`prefs`, local storage). */
export const PUSH_PREF = {
  offer: 'push.offerDismissed',
  denied: 'push.deniedDismissed',
  ios: 'push.iosHintDismissed',
} as const;

type View = keyof typeof PUSH_PREF;

const shown = (view: View): View | null => (prefs.get(PUSH_PREF[view], false) ? null : view);

function initialView(): View | null {
  const support = pushSupport();
  if (support === 'ios-not-installed') return shown('ios');
  if (support !== 'supported') return null;
  if (Notification.permission === 'granted') return null;
  if (Notification.permission === 'denied') return shown('denied');
  return shown('offer');
}

function PromptCard({
  testId,
  tone,
  icon,
  title,
  children,
  actions,
}: {
  testId: string;
  tone: 'offer' | 'warning';
  icon: ReactNode;
  title: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  return (
    <section
      aria-labelledby={`${testId}-title`}
      data-testid={testId}
      className={
        tone === 'offer'
          ? 'rounded-xl bg-blue-50 p-4 text-blue-950 ring-1 ring-blue-200'
          : 'rounded-xl bg-amber-50 p-4 text-amber-950 ring-1 ring-amber-300'
      }
    >
      <h2 id={`${testId}-title`} className="flex items-center gap-2 text-base font-bold">
        {icon}
        {title}
      </h2>
      <div className="mt-1 space-y-1 text-sm break-words">{children}</div>
      <div className="mt-3 flex flex-wrap gap-2">{actions}</div>
    </section>
  );
}

/**
 * CONTRACT §16: `Activar avisos`, offered once on the driver's screen so new tasks ring on a locked phone.
 * Not shown once the browser allows notifications (the subscription is then renewed quietly) nor where
 * push cannot work — except on an iPhone tab, which is told to install the app. A refusal explains how to
 * allow notifications in the browser's settings. Each card, once closed, stays closed on this phone.
 */
export function PushPrompt() {
  const [view, setView] = useState<View | null>(initialView);
  const [busy, setBusy] = useState(false);
  const synced = useRef(false);
  // Turning alerts on asks the server for its key: not offered while it cannot be reached.
  const reachable = useReachability((s) => s.reachable);

  useEffect(() => {
    if (synced.current || pushSupport() !== 'supported' || Notification.permission !== 'granted') return;
    synced.current = true;
    void syncPushSubscription();
  }, []);

  if (!view || (view === 'offer' && !reachable)) return null;
  const close = () => {
    prefs.set(PUSH_PREF[view], true);
    setView(null);
  };
  const dismiss = (
    <Button variant="secondary" size="lg" onClick={close}>
      {PUSH_UI.dismiss}
    </Button>
  );

  if (view === 'ios')
    return (
      <PromptCard
        testId="push-ios"
        tone="offer"
        icon={<Smartphone aria-hidden className="size-5 shrink-0 text-blue-600" />}
        title={PUSH_UI.iosTitle}
        actions={dismiss}
      >
        <p>{PUSH_UI.iosHint}</p>
      </PromptCard>
    );

  if (view === 'denied')
    return (
      <PromptCard
        testId="push-denied"
        tone="warning"
        icon={<BellOff aria-hidden className="size-5 shrink-0 text-amber-600" />}
        title={PUSH_UI.deniedTitle}
        actions={dismiss}
      >
        <p>{PUSH_UI.deniedHow}</p>
        <p>{PUSH_UI.deniedHowInstalled}</p>
      </PromptCard>
    );

  const enable = async () => {
    setBusy(true);
    try {
      const outcome = await enablePush();
      if (outcome.status === 'subscribed') {
        toast.success(outcome.message);
        setView(null);
      } else if (outcome.status === 'denied') setView(shown('denied'));
      else if (outcome.status === 'failed') toast.error(failureText(outcome));
    } finally {
      setBusy(false);
    }
  };

  return (
    <PromptCard
      testId="push-prompt"
      tone="offer"
      icon={<BellRing aria-hidden className="size-5 shrink-0 text-blue-600" />}
      title={PUSH_UI.offerTitle}
      actions={
        <>
          <Button
            size="lg"
            className="flex-1 px-3 whitespace-nowrap"
            loading={busy}
            onClick={() => void enable()}
          >
            {PUSH_UI.enable}
          </Button>
          <Button
            variant="secondary"
            size="lg"
            className="flex-1 px-3 whitespace-nowrap"
            disabled={busy}
            onClick={close}
          >
            {PUSH_UI.notNow}
          </Button>
        </>
      }
    >
      <p>{PUSH_UI.offerWhy}</p>
    </PromptCard>
  );
}

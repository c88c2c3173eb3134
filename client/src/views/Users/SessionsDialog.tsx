import { useCallback, useEffect, useState } from 'react';
import { LogOut, Monitor, RefreshCw, Smartphone } from 'lucide-react';
import { toast } from 'sonner';
import { TOAST, UI_COMMON, UI_USERS } from '@shared/labels';
import type { AdminUser, SessionInfo } from '@shared/schemas';
import { formatDateTime } from '@shared/time';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { LoadFallback } from '../../components/LoadFallback';
import { Modal } from '../../components/Modal';
import { useUsers } from '../../stores/users';
import { toastError } from '../../toast';
import { describeUserAgent } from './userAgent';

const T = UI_USERS.sessionsDialog;

type Loaded = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; sessions: SessionInfo[] };

const deviceOf = (s: SessionInfo) => describeUserAgent(s.user_agent).label ?? T.unknownDevice;

/**
 * CONTRACT §14: a user's open login sessions (the wall screen is one of them) and ending one (a lost
 * phone: that device's socket gets `session:revoked` and it goes to /login). Each end is confirmed.
 */
export function SessionsDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [reloading, setReloading] = useState(false);
  const [ending, setEnding] = useState<SessionInfo | null>(null);

  const fetchSessions = useCallback(async () => {
    try {
      const sessions = await useUsers.getState().sessions(user.id);
      setLoaded({ state: 'ready', sessions });
    } catch (err) {
      toastError(err, TOAST.loadSessionsError);
      setLoaded((l) => (l.state === 'ready' ? l : { state: 'failed' }));
    }
  }, [user.id]);

  useEffect(() => {
    void fetchSessions();
  }, [fetchSessions]);

  const reload = async () => {
    setReloading(true);
    await fetchSessions();
    setReloading(false);
  };

  const end = async (session: SessionInfo) => {
    try {
      toast.success(await useUsers.getState().endSession(user.id, session.id));
    } catch (err) {
      toastError(err, TOAST.endSessionError);
      throw err;
    }
    setLoaded((l) =>
      l.state === 'ready' ? { state: 'ready', sessions: l.sessions.filter((s) => s.id !== session.id) } : l,
    );
  };

  const sessions = loaded.state === 'ready' ? loaded.sessions : null;

  return (
    <>
      <Modal
        open
        onOpenChange={(open) => !open && onClose()}
        size="lg"
        title={T.title}
        description={T.description(user.name)}
        footer={
          <>
            <Button
              variant="ghost"
              className="mr-auto"
              onClick={() => void reload()}
              loading={reloading}
              disabled={loaded.state === 'loading'}
            >
              {!reloading && <RefreshCw aria-hidden className="size-4" />}
              {UI_COMMON.refresh}
            </Button>
            <Button variant="secondary" onClick={onClose}>
              {UI_COMMON.close}
            </Button>
          </>
        }
      >
        {!sessions ? (
          <LoadFallback
            failed={loaded.state === 'failed'}
            errorTitle={T.loadError}
            onRetry={() => void reload()}
            retrying={reloading}
          />
        ) : sessions.length === 0 ? (
          <EmptyState title={T.empty} hint={T.emptyHint} icon={<Monitor aria-hidden className="size-6" />} />
        ) : (
          <>
            <p className="mb-3 text-sm font-medium text-slate-600" data-testid="sessions-count">
              {T.count(sessions.length)}
            </p>
            <ul className="space-y-2" aria-label={T.title}>
              {sessions.map((s) => (
                <SessionRow key={s.id} session={s} onEnd={() => setEnding(s)} />
              ))}
            </ul>
          </>
        )}
      </Modal>
      <ConfirmDialog
        open={ending !== null}
        onOpenChange={(open) => !open && setEnding(null)}
        title={T.confirmTitle}
        message={ending ? T.confirmMessage(user.name, deviceOf(ending)) : ''}
        confirmLabel={T.confirm}
        onConfirm={() => ending && end(ending)}
      >
        {ending?.current && <p className="font-semibold text-red-700">{T.confirmCurrent}</p>}
      </ConfirmDialog>
    </>
  );
}

function SessionRow({ session, onEnd }: { session: SessionInfo; onEnd: () => void }) {
  const { label, mobile } = describeUserAgent(session.user_agent);
  const device = label ?? T.unknownDevice;
  const Icon = mobile ? Smartphone : Monitor;
  return (
    <li
      data-testid="session-row"
      data-session-id={session.id}
      className="flex flex-col gap-3 rounded-xl border border-slate-200 p-3 sm:flex-row sm:items-center"
    >
      <div className="flex min-w-0 flex-1 gap-3">
        <div className="grid size-10 shrink-0 place-items-center rounded-lg bg-slate-100 text-slate-500">
          <Icon aria-hidden className="size-5" />
        </div>
        <div className="min-w-0 flex-1 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <p className="font-semibold text-slate-900" title={session.user_agent ?? undefined}>
              {device}
            </p>
            {session.current && <Badge tone="sky">{T.current}</Badge>}
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
            <dt className="text-slate-500">{T.ip}</dt>
            <dd className="font-mono text-slate-700">{session.ip ?? T.unknownIp}</dd>
            <dt className="text-slate-500">{T.started}</dt>
            <dd className="tabular-nums text-slate-700">
              <time dateTime={session.created_at}>{formatDateTime(session.created_at)}</time>
            </dd>
            <dt className="text-slate-500">{T.lastActive}</dt>
            <dd className="tabular-nums text-slate-700">
              <time dateTime={session.last_refreshed_at}>{formatDateTime(session.last_refreshed_at)}</time>
            </dd>
          </dl>
        </div>
      </div>
      <Button
        variant="secondary"
        size="sm"
        className="text-red-700 hover:bg-red-50 sm:self-center"
        aria-label={T.endLabel(device)}
        onClick={onEnd}
      >
        <LogOut aria-hidden className="size-4" />
        {T.end}
      </Button>
    </li>
  );
}

import { useState } from 'react';
import { TowerControl } from 'lucide-react';
import { APP_SUBTITLE, APP_TITLE, UI_LOGIN } from '@shared/labels';
import { cn } from '../../components/cn';
import { useSession } from '../../stores/session';
import { AuthForm, type AuthMode } from './AuthForm';
import { ChangePasswordForm } from './ChangePasswordForm';
import { PendingApproval } from './PendingApproval';

/**
 * /login: the login/register form (SPEC §2); after a registration, the pending-approval screen;
 * after a login that must change its password (CONTRACT §14), the change-password form.
 */
export function LoginPage() {
  const [mode, setMode] = useState<AuthMode>('login');
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const passwordChange = useSession((s) => s.passwordChange);

  return (
    <main className="relative flex min-h-dvh items-center justify-center overflow-hidden bg-slate-950 px-4 py-10">
      <div
        aria-hidden
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top,rgba(37,99,235,0.35),transparent_60%)]"
      />
      <div
        aria-hidden
        className="pointer-events-none absolute inset-0 opacity-[0.07] [background-image:linear-gradient(#fff_1px,transparent_1px),linear-gradient(90deg,#fff_1px,transparent_1px)] [background-size:48px_48px]"
      />
      <div className="relative w-full max-w-2xl">
        <header className="mb-6 text-center text-white">
          <div className="mx-auto mb-4 grid size-16 place-items-center rounded-2xl bg-blue-600 shadow-lg shadow-blue-900/50">
            <TowerControl aria-hidden className="size-9" />
          </div>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{APP_TITLE}</h1>
          <p className="mt-1 text-sm font-semibold uppercase tracking-[0.3em] text-amber-400">
            {APP_SUBTITLE}
          </p>
        </header>

        <div className="mx-auto max-w-md rounded-2xl bg-white p-6 shadow-2xl shadow-black/40 sm:p-8">
          {passwordChange ? (
            <ChangePasswordForm />
          ) : pendingEmail !== null ? (
            <PendingApproval
              email={pendingEmail}
              onBack={() => {
                setPendingEmail(null);
                setMode('login');
              }}
            />
          ) : (
            <>
              <div
                role="tablist"
                aria-label={UI_LOGIN.modeSwitchLabel}
                onKeyDown={(e) => {
                  if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
                  const next = mode === 'login' ? 'register' : 'login';
                  setMode(next);
                  document.getElementById(`auth-tab-${next}`)?.focus();
                }}
                className="mb-5 grid grid-cols-2 gap-1 rounded-xl bg-slate-100 p-1"
              >
                {(['login', 'register'] as const).map((m) => (
                  <button
                    key={m}
                    id={`auth-tab-${m}`}
                    type="button"
                    role="tab"
                    aria-selected={mode === m}
                    aria-controls="auth-panel"
                    tabIndex={mode === m ? 0 : -1}
                    onClick={() => setMode(m)}
                    className={cn(
                      'h-10 rounded-lg text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-blue-500',
                      mode === m
                        ? 'bg-white text-slate-900 shadow-sm'
                        : 'text-slate-500 hover:text-slate-800',
                    )}
                  >
                    {m === 'login' ? UI_LOGIN.loginMode : UI_LOGIN.registerMode}
                  </button>
                ))}
              </div>
              <div id="auth-panel" role="tabpanel" aria-labelledby={`auth-tab-${mode}`}>
                <p className="mb-5 text-sm text-slate-500">
                  {mode === 'login' ? UI_LOGIN.loginIntro : UI_LOGIN.registerIntro}
                </p>
                <AuthForm mode={mode} onPending={setPendingEmail} />
              </div>
            </>
          )}
        </div>
      </div>
    </main>
  );
}

import { useEffect } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { TowerControl } from 'lucide-react';
import { UI_HEADER } from '@shared/labels';
import { Spinner } from './components/Spinner';
import { useSession } from './stores/session';
import { DashboardPage } from './views/Dashboard/DashboardPage';
import { LoginPage } from './views/Login/LoginPage';

/**
 * SPEC §2 routes: / → /dashboard or /login; /login → /dashboard when logged in; /dashboard → /login
 * when not. A stored session is validated first (GET /dashboard/stats); the guards follow the session
 * store, so a session that ends anywhere (logout, 401/403, revocation) lands on /login by itself.
 */
export function App() {
  const status = useSession((s) => s.status);
  useEffect(() => {
    if (useSession.getState().status === 'checking') void useSession.getState().validate();
  }, []);

  if (status === 'checking') return <Splash />;
  const authed = status === 'authenticated';
  return (
    <Routes>
      <Route path="/" element={<Navigate to={authed ? '/dashboard' : '/login'} replace />} />
      <Route path="/login" element={authed ? <Navigate to="/dashboard" replace /> : <LoginPage />} />
      <Route path="/dashboard" element={authed ? <DashboardPage /> : <Navigate to="/login" replace />} />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}

function Splash() {
  return (
    <main className="grid min-h-dvh place-items-center bg-slate-950 text-slate-300">
      <div className="flex flex-col items-center gap-4">
        <div className="grid size-14 place-items-center rounded-2xl bg-blue-600 text-white">
          <TowerControl aria-hidden className="size-8" />
        </div>
        <p role="status" className="flex items-center gap-2 text-sm">
          <Spinner />
          {UI_HEADER.validatingSession}
        </p>
      </div>
    </main>
  );
}

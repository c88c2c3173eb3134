import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { TowerControl } from 'lucide-react';
import { UI_HEADER } from '@shared/labels';
import { Spinner } from './components/Spinner';
import { can } from './permissions';
import { useSession } from './stores/session';
import { DashboardPage } from './views/Dashboard/DashboardPage';
import { LoginPage } from './views/Login/LoginPage';
import { WALL_PATH } from './views/Wall/path';

const WallScreen = lazy(() => import('./views/Wall/WallScreen').then((m) => ({ default: m.WallScreen })));
/** Where a login returns to: the wall when that is what was asked for, else the dashboard. */
const afterLogin = (state: unknown): string =>
  (state as { from?: unknown } | null)?.from === WALL_PATH ? WALL_PATH : '/dashboard';

/**
 * SPEC §2 routes: / → /dashboard or /login; /login → /dashboard when logged in; /dashboard → /login
 * when not; /pantalla (CONTRACT §15) is the staff wall screen, and a login it sent returns to it. A stored session is validated first (GET /dashboard/stats); the guards follow the session
 * store, so a session that ends anywhere (logout, 401/403, revocation) lands on /login by itself.
 */
export function App() {
  const status = useSession((s) => s.status);
  const role = useSession((s) => s.user?.role);
  const location = useLocation();
  useEffect(() => {
    if (useSession.getState().status === 'checking') void useSession.getState().validate();
  }, []);

  if (status === 'checking') return <Splash />;
  const authed = status === 'authenticated';
  return (
    <Routes>
      <Route path="/" element={<Navigate to={authed ? '/dashboard' : '/login'} replace />} />
      <Route
        path="/login"
        element={authed ? <Navigate to={afterLogin(location.state)} replace /> : <LoginPage />}
      />
      <Route path="/dashboard" element={authed ? <DashboardPage /> : <Navigate to="/login" replace />} />
      {/* Staff only: a conductor is sent to their own screen; a visit without a session logs in first. */}
      <Route
        path={WALL_PATH}
        element={
          !authed ? (
            <Navigate to="/login" replace state={{ from: WALL_PATH }} />
          ) : !role || can(role, 'driverScreen') ? (
            <Navigate to="/dashboard" replace />
          ) : (
            <Suspense fallback={<Splash />}>
              <WallScreen />
            </Suspense>
          )
        }
      />
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

import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { TowerControl } from 'lucide-react';
import { UI_HEADER } from '@shared/labels';
import { Spinner } from './components/Spinner';
import { can } from './permissions';
import { useSession } from './stores/session';
import { DashboardPage } from './views/Dashboard/DashboardPage';
import { ShellOnView } from './views/Dashboard/ShellOnView';
import { GATE_PATH } from './views/Gate/path';
import { HANDOVER_PATH } from './views/Handover/path';
import { LABELS_PATH } from './views/Locations/path';
import { WALL_PATH } from './views/Wall/path';
import { PATIO_PATH } from './views/Yard/path';
import { PatioPage } from './views/Yard/PatioPage';

const WallScreen = lazy(() => import('./views/Wall/WallScreen').then((m) => ({ default: m.WallScreen })));
// The login forms (and the validation library under them) are loaded only by a visit without a session:
// a wall screen or a staff shell that is already signed in never needs them (initial JavaScript budget).
// The labels' sheet and its QR generator load only when printing labels (CONTRACT §20).
const LabelsSheet = lazy(() =>
  import('./views/Locations/LabelsSheet').then((m) => ({ default: m.LabelsSheet })),
);
const LoginPage = lazy(() => import('./views/Login/LoginPage').then((m) => ({ default: m.LoginPage })));
/** The staff-only pages a login sent from returns to; any other login lands on the dashboard. */
const STAFF_PAGES = [WALL_PATH, PATIO_PATH, GATE_PATH, HANDOVER_PATH, LABELS_PATH];
const afterLogin = (state: unknown): string => {
  const from = (state as { from?: unknown } | null)?.from;
  return STAFF_PAGES.find((path) => path === from) ?? '/dashboard';
};

/**
 * SPEC §2 routes: / → /dashboard or /login; /login → /dashboard when logged in; /dashboard → /login
 * when not; /pantalla (CONTRACT §15) is the staff wall screen, /patio (CONTRACT §17) the staff shell on
 * the Patio and /porteria (CONTRACT §19) the staff shell on the Portería: a login any of them sent
 * returns to it. A stored session is validated first (GET /dashboard/stats); the guards follow the
 * session store, so a session that ends anywhere (logout, 401/403, revocation) lands on /login by itself.
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
  const staffOnly = (path: string, page: ReactNode) =>
    !authed ? (
      <Navigate to="/login" replace state={{ from: path }} />
    ) : !role || can(role, 'driverScreen') ? (
      <Navigate to="/dashboard" replace />
    ) : (
      page
    );
  return (
    <Routes>
      <Route path="/" element={<Navigate to={authed ? '/dashboard' : '/login'} replace />} />
      <Route
        path="/login"
        element={
          authed ? (
            <Navigate to={afterLogin(location.state)} replace />
          ) : (
            <Suspense fallback={<Splash />}>
              <LoginPage />
            </Suspense>
          )
        }
      />
      <Route path="/dashboard" element={authed ? <DashboardPage /> : <Navigate to="/login" replace />} />
      {/* Staff only: a conductor is sent to their own screen; a visit without a session logs in first. */}
      <Route
        path={WALL_PATH}
        element={staffOnly(
          WALL_PATH,
          <Suspense fallback={<Splash />}>
            <WallScreen />
          </Suspense>,
        )}
      />
      <Route path={PATIO_PATH} element={staffOnly(PATIO_PATH, <PatioPage />)} />
      <Route path={GATE_PATH} element={staffOnly(GATE_PATH, <ShellOnView view="gate" />)} />
      <Route path={HANDOVER_PATH} element={staffOnly(HANDOVER_PATH, <ShellOnView view="handover" />)} />
      <Route
        path={LABELS_PATH}
        element={staffOnly(
          LABELS_PATH,
          <Suspense fallback={<Splash />}>
            <LabelsSheet />
          </Suspense>,
        )}
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

// A staff URL that opens the shell on one view (/patio on the Patio, CONTRACT §17; /porteria on the
// Portería, CONTRACT §19). The shell switches views with the header buttons (useUi.view), not with routes,
// so the URL only opens on its view: choosing another view here goes on at /dashboard, and the header's
// button for this view on /dashboard stays there — one shell, and no second way of selecting views to keep
// in step with the first.
import { useLayoutEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { View } from '@shared/enums';
import { useUi } from '../../stores/ui';
import { DashboardPage } from './DashboardPage';

export function ShellOnView({ view: target }: { view: View }) {
  const view = useUi((s) => s.view);
  const navigate = useNavigate();
  // The view is chosen before the first paint, so the board never flashes (nor loads) on the way.
  const [entered, setEntered] = useState(false);
  useLayoutEffect(() => {
    useUi.getState().setView(target);
    setEntered(true);
  }, [target]);
  const left = entered && view !== target;
  useLayoutEffect(() => {
    if (left) void navigate('/dashboard');
  }, [left, navigate]);
  return entered && !left ? <DashboardPage /> : null;
}

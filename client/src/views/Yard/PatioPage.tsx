// /patio (CONTRACT §17): the staff shell with the Patio selected. The shell switches views with the header
// buttons (useUi.view), not with routes, so the URL only opens on the Patio: choosing another view here
// goes on at /dashboard, and the header's Patio button on /dashboard stays there — one shell, and no
// second way of selecting views to keep in step with the first.
import { useLayoutEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useUi } from '../../stores/ui';
import { DashboardPage } from '../Dashboard/DashboardPage';

export function PatioPage() {
  const view = useUi((s) => s.view);
  const navigate = useNavigate();
  // The view is chosen before the first paint, so the board never flashes (nor loads) on the way.
  const [entered, setEntered] = useState(false);
  useLayoutEffect(() => {
    useUi.getState().setView('yard');
    setEntered(true);
  }, []);
  const left = entered && view !== 'yard';
  useLayoutEffect(() => {
    if (left) void navigate('/dashboard');
  }, [left, navigate]);
  return entered && !left ? <DashboardPage /> : null;
}

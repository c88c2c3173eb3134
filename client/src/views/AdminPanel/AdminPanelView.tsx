import { useState } from 'react';
import * as Tabs from '@radix-ui/react-tabs';
import { RefreshCw } from 'lucide-react';
import { toast } from 'sonner';
import { useShallow } from 'zustand/react/shallow';
import { TOAST, UI_COMMON, UI_INTEGRATIONS, UI_SYSTEM } from '@shared/labels';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useResync } from '../../socket';
import { useSystem } from '../../stores/system';
import { toastError } from '../../toast';
import { ActivityLog } from './ActivityLog';
import { DbStatusPanel } from './DbStatusPanel';
import { HealthPanel } from './HealthPanel';
import { IntegrationsTab } from './IntegrationsTab';
import { ACTION_LOOK, MaintenancePanel, type SystemAction } from './MaintenancePanel';

/** The action each confirmation runs and its SPEC §8 fallback error. */
const RUN: Record<SystemAction, { run: () => Promise<string>; error: string }> = {
  migrations: { run: () => useSystem.getState().runMigrations(), error: TOAST.migrationsError },
  clearTokens: { run: () => useSystem.getState().clearAllTokens(), error: TOAST.clearTokensError },
  backup: { run: () => useSystem.getState().backup(), error: UI_SYSTEM.actions.backup.error },
};

const TAB_CLASS =
  'h-9 rounded-lg px-3 text-sm font-semibold text-slate-600 focus-visible:outline-2 focus-visible:outline-blue-500 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm';

/** SPEC §2 Sistema (admin): health, database status, maintenance actions and the recent activity log. */
export function AdminPanelView() {
  const { dbStatus, health, logs, failed, refreshing, refresh } = useSystem(
    useShallow(({ dbStatus, health, logs, failed, refreshing, refresh }) => ({
      dbStatus,
      health,
      logs,
      failed,
      refreshing,
      refresh,
    })),
  );
  const [pending, setPending] = useState<SystemAction | null>(null);
  // Loaded on opening and after every reconnect; the refresh button reads everything again.
  useResync(() => void refresh());

  const confirm = async (action: SystemAction) => {
    try {
      toast.success(await RUN[action].run());
    } catch (err) {
      toastError(err, RUN[action].error);
      throw err;
    }
  };

  const text = pending && UI_SYSTEM.actions[pending];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-xl font-bold text-slate-900">{UI_SYSTEM.title}</h1>
          <p className="text-sm text-slate-500">{UI_SYSTEM.subtitle}</p>
        </div>
        <Button variant="secondary" loading={refreshing} onClick={() => void refresh()}>
          {!refreshing && <RefreshCw aria-hidden className="size-4" />}
          {UI_COMMON.refresh}
        </Button>
      </div>

      <Tabs.Root defaultValue="status" className="space-y-4">
        <Tabs.List aria-label={UI_SYSTEM.title} className="flex w-fit gap-1 rounded-xl bg-slate-200 p-1">
          <Tabs.Trigger value="status" className={TAB_CLASS}>
            {UI_INTEGRATIONS.systemTab}
          </Tabs.Trigger>
          <Tabs.Trigger value="integrations" className={TAB_CLASS}>
            {UI_INTEGRATIONS.tab}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="status" className="space-y-4 focus-visible:outline-none">
          <HealthPanel health={health} failed={failed.health} />
          {/* grid-cols-1 (minmax(0, 1fr)): the log table scrolls inside its card instead of widening a phone. */}
          <div className="grid grid-cols-1 items-start gap-4 xl:grid-cols-3">
            <div className="space-y-4">
              <MaintenancePanel onAction={setPending} />
              <DbStatusPanel
                status={dbStatus}
                failed={failed.dbStatus}
                onRunMigrations={() => setPending('migrations')}
              />
            </div>
            <ActivityLog logs={logs} failed={failed.logs} className="xl:col-span-2" />
          </div>
        </Tabs.Content>
        <Tabs.Content value="integrations" className="focus-visible:outline-none">
          <IntegrationsTab />
        </Tabs.Content>
      </Tabs.Root>

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={text?.confirmTitle ?? ''}
        message={text?.confirmMessage ?? ''}
        confirmLabel={text?.confirm ?? ''}
        variant={pending ? ACTION_LOOK[pending].variant : 'primary'}
        onConfirm={() => pending && confirm(pending)}
      />
    </div>
  );
}

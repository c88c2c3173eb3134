import type { ReactNode } from 'react';
import { CircleCheck, Database, TriangleAlert, Wrench } from 'lucide-react';
import { ROLES, TASK_STATUSES } from '@shared/enums';
import { COLLECTION_LABELS, STATUS_LABELS, TOAST, UI_SYSTEM } from '@shared/labels';
import type { DbStatus } from '@shared/schemas';
import { LOCALE } from '@shared/constants';
import { RoleBadge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { cn } from '../../components/cn';
import { ACCENT_TONE, STATUS_TONE } from '../../components/tones';
import { PanelState } from './PanelState';

const T = UI_SYSTEM.db;
const count = new Intl.NumberFormat(LOCALE);

interface DbStatusPanelProps {
  status: DbStatus | null;
  failed?: boolean;
  /** Opens the run-migrations confirmation (the integrity warning's button). */
  onRunMigrations: () => void;
}

/** SPEC §2 Sistema: collection counts, users by role, tasks by status and the data-integrity warning. */
export function DbStatusPanel({ status, failed, onRunMigrations }: DbStatusPanelProps) {
  return (
    <Card title={T.title} icon={<Database aria-hidden className="size-5" />}>
      {!status ? (
        <PanelState failed={failed} error={TOAST.loadDbStatusError} />
      ) : (
        <div className="space-y-5">
          <Integrity status={status} onRunMigrations={onRunMigrations} />

          <Section id="db-tasks" title={T.tasksByStatus}>
            <ul className="grid grid-cols-3 gap-2">
              {TASK_STATUSES.map((s) => (
                <li key={s} className={cn('rounded-lg px-3 py-2', ACCENT_TONE[STATUS_TONE[s]])}>
                  <p className="truncate text-xs font-medium">{STATUS_LABELS[s]}</p>
                  <p className="text-xl font-bold tabular-nums">
                    {count.format(status.tasks_by_status[s] ?? 0)}
                  </p>
                </li>
              ))}
            </ul>
          </Section>

          <Section id="db-roles" title={T.usersByRole}>
            <ul className="grid grid-cols-2 gap-2">
              {ROLES.map((r) => (
                <li key={r} className="flex items-center justify-between rounded-lg bg-slate-50 px-3 py-2">
                  <RoleBadge role={r} />
                  <span className="font-semibold tabular-nums text-slate-900">
                    {count.format(status.users_by_role[r] ?? 0)}
                  </span>
                </li>
              ))}
            </ul>
          </Section>

          <Section id="db-collections" title={T.collections}>
            <dl className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
              {Object.entries(status.collections).map(([name, n]) => (
                <div key={name} className="flex items-center justify-between gap-3 px-3 py-1.5 text-sm">
                  <dt className="min-w-0 truncate text-slate-700">
                    {COLLECTION_LABELS[name] ?? name}{' '}
                    <span className="font-mono text-xs text-slate-400">{name}</span>
                  </dt>
                  <dd className="font-semibold tabular-nums text-slate-900">{count.format(n)}</dd>
                </div>
              ))}
            </dl>
          </Section>
        </div>
      )}
    </Card>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h3 id={id} className="mb-2 text-sm font-semibold text-slate-700">
        {title}
      </h3>
      {children}
    </section>
  );
}

function Integrity({ status, onRunMigrations }: { status: DbStatus; onRunMigrations: () => void }) {
  const { has_issues, users_without_task_types } = status.data_integrity;
  if (!has_issues)
    return (
      <p className="flex items-center gap-2 rounded-lg bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-800">
        <CircleCheck aria-hidden className="size-4 shrink-0" />
        {T.integrityOk}
      </p>
    );
  return (
    <div role="alert" className="rounded-lg bg-amber-50 p-3 ring-1 ring-inset ring-amber-300">
      <div className="flex gap-2.5">
        <TriangleAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-amber-600" />
        <div className="min-w-0 flex-1 space-y-2">
          <p className="font-semibold text-amber-950">{T.integrityIssue(users_without_task_types)}</p>
          <p className="text-sm text-amber-900">{T.integrityHint}</p>
          <Button variant="warning" size="sm" onClick={onRunMigrations}>
            <Wrench aria-hidden className="size-4" />
            {UI_SYSTEM.actions.migrations.label}
          </Button>
        </div>
      </div>
    </div>
  );
}

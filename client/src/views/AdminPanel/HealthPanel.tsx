import {
  Bot,
  CircleCheck,
  CircleHelp,
  CircleX,
  Database,
  DatabaseBackup,
  Gauge,
  HardDrive,
  HeartPulse,
  MemoryStick,
  RadioTower,
  TriangleAlert,
  type LucideIcon,
} from 'lucide-react';
import { HEALTH_STATUSES, type HealthStatus } from '@shared/enums';
import { HEALTH_CHECK_LABELS, HEALTH_LABELS, TOAST, UI_SYSTEM, UNKNOWN_LABEL } from '@shared/labels';
import { HEALTH_CHECK_NAMES, type HealthCheck, type HealthCheckName } from '@shared/schemas';
import { Badge } from '../../components/Badge';
import { Card } from '../../components/Card';
import { cn } from '../../components/cn';
import { HEALTH_TONE, type Tone } from '../../components/tones';
import { PanelState } from './PanelState';

const CHECK_ICONS: Record<HealthCheckName, LucideIcon> = {
  database: Database,
  disk: HardDrive,
  memory: MemoryStick,
  event_loop: Gauge,
  websocket: RadioTower,
  auto_assignment: Bot,
  backup: DatabaseBackup,
};

/** SPEC §4: healthy, warning, error; anything else is unknown. */
type Look = HealthStatus | 'unknown';
const lookOf = (status: string): Look =>
  (HEALTH_STATUSES as readonly string[]).includes(status) ? (status as HealthStatus) : 'unknown';
const healthLabel = (status: string) => {
  const look = lookOf(status);
  return look === 'unknown' ? UNKNOWN_LABEL : HEALTH_LABELS[look];
};
const healthTone = (status: string): Tone => {
  const look = lookOf(status);
  return look === 'unknown' ? 'slate' : HEALTH_TONE[look];
};

const STATUS_ICONS: Record<Look, LucideIcon> = {
  healthy: CircleCheck,
  warning: TriangleAlert,
  error: CircleX,
  unknown: CircleHelp,
};
const TILE_BORDER: Record<Look, string> = {
  healthy: 'border-l-emerald-500',
  warning: 'border-l-amber-400',
  error: 'border-l-red-500',
  unknown: 'border-l-slate-300',
};
const OVERALL_LOOK: Record<Look, string> = {
  healthy: 'bg-emerald-600 text-white',
  warning: 'bg-amber-400 text-amber-950',
  error: 'bg-red-600 text-white',
  unknown: 'bg-slate-600 text-white',
};

/** SPEC §2 Sistema: the overall status and one card per check, with its message. */
export function HealthPanel({ health, failed }: { health: HealthCheck | null; failed?: boolean }) {
  // Known checks in CONTRACT §10 order, then anything else the server reports.
  const names = health
    ? [
        ...HEALTH_CHECK_NAMES.filter((n) => n in health.checks),
        ...Object.keys(health.checks).filter((n) => !(HEALTH_CHECK_NAMES as readonly string[]).includes(n)),
      ]
    : [];
  return (
    <Card title={UI_SYSTEM.health.title} icon={<HeartPulse aria-hidden className="size-5" />}>
      {!health ? (
        <PanelState failed={failed} error={TOAST.loadHealthError} />
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4" aria-label={UI_SYSTEM.health.title}>
          <OverallTile status={health.overall_status} />
          {names.map((name) => {
            const check = health.checks[name];
            const Icon = CHECK_ICONS[name as HealthCheckName] ?? CircleHelp;
            return (
              <li
                key={name}
                data-testid={`health-${name}`}
                className={cn(
                  'rounded-lg border border-l-4 border-slate-200 bg-white p-3',
                  TILE_BORDER[lookOf(check.status)],
                )}
              >
                <div className="flex items-center justify-between gap-2">
                  <h3 className="flex min-w-0 items-center gap-2 text-sm font-semibold text-slate-900">
                    <Icon aria-hidden className="size-4 shrink-0 text-slate-500" />
                    <span className="truncate">{HEALTH_CHECK_LABELS[name as HealthCheckName] ?? name}</span>
                  </h3>
                  <Badge tone={healthTone(check.status)}>{healthLabel(check.status)}</Badge>
                </div>
                <p className="mt-1.5 text-sm leading-snug text-slate-600">{check.message}</p>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

function OverallTile({ status }: { status: string }) {
  const Icon = STATUS_ICONS[lookOf(status)];
  return (
    <li
      data-testid="health-overall"
      className={cn('flex items-center gap-3 rounded-lg p-3', OVERALL_LOOK[lookOf(status)])}
    >
      <Icon aria-hidden className="size-8 shrink-0" />
      <div>
        <p className="text-xs font-medium uppercase tracking-wide opacity-80">{UI_SYSTEM.health.overall}</p>
        <p className="text-xl font-bold">{healthLabel(status)}</p>
      </div>
    </li>
  );
}

import { DatabaseBackup, LogOut, Wrench, type LucideIcon } from 'lucide-react';
import { UI_SYSTEM } from '@shared/labels';
import { Button, type ButtonVariant } from '../../components/Button';
import { Card } from '../../components/Card';

export type SystemAction = 'migrations' | 'clearTokens' | 'backup';

export const ACTION_LOOK: Record<
  SystemAction,
  { icon: LucideIcon; variant: Extract<ButtonVariant, 'primary' | 'danger' | 'warning'> }
> = {
  migrations: { icon: Wrench, variant: 'warning' },
  clearTokens: { icon: LogOut, variant: 'danger' },
  backup: { icon: DatabaseBackup, variant: 'primary' },
};

const ORDER: SystemAction[] = ['migrations', 'clearTokens', 'backup'];

/** SPEC §2 Sistema actions area; each button opens its confirmation (SPEC §5). */
export function MaintenancePanel({ onAction }: { onAction: (a: SystemAction) => void }) {
  return (
    <Card title={UI_SYSTEM.actions.title} icon={<Wrench aria-hidden className="size-5" />}>
      <ul className="space-y-3">
        {ORDER.map((action) => {
          const { icon: Icon, variant } = ACTION_LOOK[action];
          const text = UI_SYSTEM.actions[action];
          return (
            <li key={action} className="flex items-center gap-3 rounded-lg bg-slate-50 p-3">
              <p className="min-w-0 flex-1 text-sm text-slate-600">{text.hint}</p>
              <Button
                variant={variant}
                size="sm"
                className="whitespace-nowrap"
                onClick={() => onAction(action)}
              >
                <Icon aria-hidden className="size-4" />
                {text.label}
              </Button>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

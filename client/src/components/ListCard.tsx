import { useState, type ReactNode } from 'react';
import { RefreshCw } from 'lucide-react';
import { UI_COMMON } from '@shared/labels';
import { Card } from './Card';
import { HeaderAction } from './HeaderAction';
import { LoadFallback } from './LoadFallback';

interface ListCardProps {
  title: string;
  icon: ReactNode;
  /** Header content before Actualizar (counts, exports, resets). */
  actions?: ReactNode;
  refreshLabel?: string;
  /** Loads the list again: Actualizar, and the retry of a failed first load. */
  load: () => Promise<unknown>;
  loaded: boolean;
  failed: boolean;
  errorTitle: string;
  /** What shows instead of the list when there is nothing to list (an EmptyState), else false. */
  empty: ReactNode;
  children: ReactNode;
}

/**
 * The card of a supervision list (Usuarios, Analytics, Control Conductores): title, header actions and
 * Actualizar; before the first load a spinner (or the error with a retry), then the empty state or the
 * list, edge to edge.
 */
export function ListCard(props: ListCardProps) {
  const [reloading, setReloading] = useState(false);
  const reload = async () => {
    setReloading(true);
    try {
      await props.load();
    } finally {
      setReloading(false);
    }
  };

  return (
    <Card
      title={props.title}
      icon={props.icon}
      bodyClassName="p-0"
      actions={
        <>
          {props.actions}
          <HeaderAction
            icon={RefreshCw}
            label={props.refreshLabel ?? UI_COMMON.refresh}
            loading={reloading}
            onClick={() => void reload()}
          />
        </>
      }
    >
      {!props.loaded ? (
        <LoadFallback
          failed={props.failed}
          errorTitle={props.errorTitle}
          onRetry={() => void reload()}
          retrying={reloading}
        />
      ) : (
        props.empty || props.children
      )}
    </Card>
  );
}

// The Ubicaciones view (CONTRACT §17, admin and manager): the yard's location catalogue — figures, a
// filtered table, create, edit, deactivate, reactivate and the CSV import. Live from `yard:changed`.
import { useMemo, useState } from 'react';
import {
  Boxes,
  CircleOff,
  FileUp,
  Layers,
  MapPin,
  Pencil,
  Plus,
  PowerOff,
  QrCode,
  RotateCcw,
  Search,
} from 'lucide-react';
import { toast } from 'sonner';
import { LOCATION_KIND_LABELS, PROOF_TEXT, UI_LOCATIONS } from '@shared/labels';
import type { Location } from '@shared/schemas';
import { placeKey } from '@shared/text';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { HeaderAction } from '../../components/HeaderAction';
import { inputClass } from '../../components/Field';
import { ListCard } from '../../components/ListCard';
import { StatGrid } from '../../components/StatCard';
import { cn } from '../../components/cn';
import { errorText } from '../../api';
import { loadLocations, useLocations, useLocationsFeed } from '../../stores/locations';
import { toastError } from '../../toast';
import { ImportLocationsDialog } from './ImportLocationsDialog';
import { LocationDialog } from './LocationDialog';
import { LABELS_PATH } from './path';
import { FormAlert } from '../../components/FormAlert';

type Dialog =
  | { kind: 'create' }
  | { kind: 'import' }
  | { kind: 'edit'; location: Location }
  | { kind: 'deactivate'; location: Location };

/** What the filter looks in: the row's code, name, zone and kind, as one matching key. */
const searchKey = (l: Location) => placeKey(`${l.code} ${l.name} ${l.zone} ${LOCATION_KIND_LABELS[l.kind]}`);

export function LocationsView() {
  useLocationsFeed();
  const locations = useLocations((s) => s.locations);
  const loaded = useLocations((s) => s.loaded);
  const failed = useLocations((s) => s.failed);
  const [query, setQuery] = useState('');
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [deactivateError, setDeactivateError] = useState<string | null>(null);
  const close = () => setDialog(null);
  // The dialogs follow the live row (a push may change it while one is open).
  const target =
    dialog && 'location' in dialog
      ? (locations.find((l) => l.id === dialog.location.id) ?? dialog.location)
      : null;

  // Each row's key once per catalogue load, not once per keystroke.
  const keyed = useMemo(() => locations.map((l) => ({ location: l, key: searchKey(l) })), [locations]);
  const shown = useMemo(() => {
    const key = placeKey(query);
    return key ? keyed.filter((k) => k.key.includes(key)).map((k) => k.location) : locations;
  }, [keyed, locations, query]);

  const deactivate = async (location: Location) => {
    setDeactivateError(null);
    try {
      toast.success(await useLocations.getState().deactivate(location.id));
    } catch (err) {
      // A place in use (409) says why inside the dialog, which stays open.
      setDeactivateError(errorText(err, UI_LOCATIONS.toast.deactivateError));
      throw err;
    }
  };

  const reactivate = async (location: Location) => {
    try {
      const saved = await useLocations.getState().update(location.id, { active: true });
      toast.success(UI_LOCATIONS.toast.reactivated(saved.name));
    } catch (err) {
      toastError(err, UI_LOCATIONS.toast.reactivateError);
    }
  };

  const A = UI_LOCATIONS.actions;
  return (
    <div className="space-y-4">
      <SummaryCards locations={locations} />
      <ListCard
        title={UI_LOCATIONS.title}
        icon={<MapPin aria-hidden className="size-5" />}
        actions={
          <>
            {loaded && <Badge>{locations.length}</Badge>}
            <HeaderAction
              icon={QrCode}
              label={PROOF_TEXT.printLabels}
              onClick={() => window.location.assign(LABELS_PATH)}
            />
            <HeaderAction icon={FileUp} label={A.import} onClick={() => setDialog({ kind: 'import' })} />
            <HeaderAction
              icon={Plus}
              label={A.create}
              variant="primary"
              onClick={() => setDialog({ kind: 'create' })}
            />
          </>
        }
        load={loadLocations}
        loaded={loaded}
        failed={failed}
        errorTitle={UI_LOCATIONS.toast.loadError}
        empty={
          locations.length === 0 && (
            <EmptyState
              icon={<MapPin aria-hidden className="size-6" />}
              title={UI_LOCATIONS.empty}
              hint={UI_LOCATIONS.emptyHint}
            />
          )
        }
      >
        <FilterBar query={query} onQuery={setQuery} shown={shown.length} total={locations.length} />
        {shown.length ? (
          <LocationsTable
            locations={shown}
            onEdit={(location) => setDialog({ kind: 'edit', location })}
            onDeactivate={(location) => {
              setDeactivateError(null);
              setDialog({ kind: 'deactivate', location });
            }}
            onReactivate={(location) => void reactivate(location)}
          />
        ) : (
          <EmptyState icon={<Search aria-hidden className="size-6" />} title={UI_LOCATIONS.noMatch(query)} />
        )}
      </ListCard>

      {dialog?.kind === 'create' && <LocationDialog location={null} onClose={close} />}
      {target && dialog?.kind === 'edit' && (
        <LocationDialog key={target.id} location={target} onClose={close} />
      )}
      {dialog?.kind === 'import' && <ImportLocationsDialog onClose={close} />}
      <ConfirmDialog
        open={dialog?.kind === 'deactivate'}
        onOpenChange={(open) => !open && close()}
        title={UI_LOCATIONS.deactivateDialog.title}
        message={target ? UI_LOCATIONS.deactivateDialog.message(target.name, target.code) : ''}
        confirmLabel={UI_LOCATIONS.deactivateDialog.confirm}
        onConfirm={() => target && deactivate(target)}
      >
        {deactivateError && <FormAlert>{deactivateError}</FormAlert>}
      </ConfirmDialog>
    </div>
  );
}

function SummaryCards({ locations }: { locations: Location[] }) {
  const S = UI_LOCATIONS.stats;
  const active = locations.filter((l) => l.active);
  // A gate holds no trailer: its capacity is no room in the yard.
  const capacity = active.reduce((sum, l) => (l.kind === 'puerta' ? sum : sum + l.capacity), 0);
  return (
    <StatGrid
      items={[
        { label: S.active, value: active.length, tone: 'blue', icon: MapPin },
        { label: S.capacity, value: capacity, tone: 'green', icon: Boxes },
        { label: S.zones, value: new Set(active.map((l) => l.zone)).size, tone: 'indigo', icon: Layers },
        { label: S.inactive, value: locations.length - active.length, tone: 'slate', icon: CircleOff },
      ]}
    />
  );
}

function FilterBar({
  query,
  onQuery,
  shown,
  total,
}: {
  query: string;
  onQuery: (query: string) => void;
  shown: number;
  total: number;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3 border-b border-slate-100 px-4 py-3">
      <label className="relative w-full max-w-md">
        <span className="sr-only">{UI_LOCATIONS.filter}</span>
        <Search
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
        />
        <input
          type="search"
          value={query}
          onChange={(e) => onQuery(e.target.value)}
          placeholder={UI_LOCATIONS.filterPlaceholder}
          autoComplete="off"
          className={cn(inputClass, 'pl-9')}
        />
      </label>
      {query && (
        <span className="text-sm tabular-nums text-slate-500" aria-live="polite">
          {UI_LOCATIONS.shown(shown, total)}
        </span>
      )}
    </div>
  );
}

const TH = 'px-4 py-2.5 text-left text-xs font-semibold uppercase tracking-wide text-slate-500';
const NUM = 'text-right tabular-nums';

function LocationsTable({
  locations,
  onEdit,
  onDeactivate,
  onReactivate,
}: {
  locations: Location[];
  onEdit: (location: Location) => void;
  onDeactivate: (location: Location) => void;
  onReactivate: (location: Location) => void;
}) {
  const C = UI_LOCATIONS.columns;
  const A = UI_LOCATIONS.actions;
  const L = UI_LOCATIONS.actionLabels;
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[960px] text-sm">
        <thead className="border-b border-slate-200 bg-slate-50">
          <tr>
            <th scope="col" className={TH}>
              {C.code}
            </th>
            <th scope="col" className={TH}>
              {C.name}
            </th>
            <th scope="col" className={TH}>
              {C.kind}
            </th>
            <th scope="col" className={TH}>
              {C.zone}
            </th>
            <th scope="col" className={cn(TH, 'text-right')}>
              {C.capacity}
            </th>
            <th scope="col" className={cn(TH, 'text-right')}>
              {C.x}
            </th>
            <th scope="col" className={cn(TH, 'text-right')}>
              {C.y}
            </th>
            <th scope="col" className={TH}>
              {C.state}
            </th>
            <th scope="col" className={cn(TH, 'text-right')}>
              {C.actions}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {locations.map((l) => (
            <tr
              key={l.id}
              data-testid="location-row"
              className={cn('hover:bg-slate-50/70', l.active ? 'text-slate-700' : 'text-slate-400')}
            >
              <td className="px-4 py-2.5 font-mono text-xs font-semibold">{l.code}</td>
              <td className={cn('px-4 py-2.5 font-semibold', l.active && 'text-slate-900')}>{l.name}</td>
              <td className="px-4 py-2.5">{LOCATION_KIND_LABELS[l.kind]}</td>
              <td className="px-4 py-2.5">{l.zone}</td>
              <td className={cn('px-4 py-2.5', NUM)}>{l.capacity}</td>
              <td className={cn('px-4 py-2.5', NUM)}>{l.x}</td>
              <td className={cn('px-4 py-2.5', NUM)}>{l.y}</td>
              <td className="px-4 py-2.5">
                {l.active ? (
                  <Badge tone="green">{UI_LOCATIONS.state.active}</Badge>
                ) : (
                  <Badge tone="slate">{UI_LOCATIONS.state.inactive}</Badge>
                )}
              </td>
              <td className="px-4 py-2">
                <div className="flex justify-end gap-1.5">
                  <Button variant="secondary" size="sm" aria-label={L.edit(l.name)} onClick={() => onEdit(l)}>
                    <Pencil aria-hidden className="size-4" />
                    {A.edit}
                  </Button>
                  {l.active ? (
                    <Button
                      variant="secondary"
                      size="sm"
                      className="text-red-700 hover:bg-red-50"
                      aria-label={L.deactivate(l.name)}
                      onClick={() => onDeactivate(l)}
                    >
                      <PowerOff aria-hidden className="size-4" />
                      {A.deactivate}
                    </Button>
                  ) : (
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-label={L.reactivate(l.name)}
                      onClick={() => onReactivate(l)}
                    >
                      <RotateCcw aria-hidden className="size-4" />
                      {A.reactivate}
                    </Button>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

// The Portería (CONTRACT §19; also at /porteria): the entry form and the trucks in the yard now, side by
// side on a gate tablet (1280×800), one under the other on a phone (390×844).
import { Truck } from 'lucide-react';
import { UI_GATE } from '@shared/labels';
import { useGate, useGateFeed } from '../../stores/gate';
import { EntryForm } from './EntryForm';
import { OpenVisits } from './OpenVisits';

export function GateView() {
  useGateFeed();
  const count = useGate((s) => s.open.length);
  return (
    <div className="mx-auto max-w-7xl space-y-4">
      <h1 className="sr-only">{UI_GATE.title}</h1>
      {/* A phone shows the trucks under the form: one tap takes the gate down to them for an exit. */}
      <a
        href="#gate-open"
        className="flex min-h-12 items-center justify-center gap-2 rounded-lg bg-white text-base font-semibold text-slate-800 ring-1 ring-slate-300 lg:hidden"
      >
        <Truck aria-hidden className="size-5 text-slate-500" />
        {UI_GATE.inYardTitle} ({count})
      </a>
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
        <EntryForm />
        <OpenVisits />
      </div>
    </div>
  );
}

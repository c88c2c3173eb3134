// The Portería (CONTRACT §19; also at /porteria): the entry form and the trucks in the yard now, side by
// side on a gate tablet (1280×800), one under the other on a phone (390×844).
import { UI_GATE } from '@shared/labels';
import { useGateFeed } from '../../stores/gate';
import { EntryForm } from './EntryForm';
import { OpenVisits } from './OpenVisits';

export function GateView() {
  useGateFeed();
  return (
    <div className="mx-auto max-w-7xl space-y-4">
      <h1 className="sr-only">{UI_GATE.title}</h1>
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
        <EntryForm />
        <OpenVisits />
      </div>
    </div>
  );
}

// A trailer dragged on the map to another place, or sent there from its panel's "Mover a…": the create
// form opens with the move filled in (CONTRACT §17). The form and the server do the rest (a full place
// still answers 409 there if the map was a moment behind).
import { toast } from 'sonner';
import { YARD_ERR } from '@shared/labels';
import type { Location, YardLocation } from '@shared/schemas';
import { useUi } from '../../stores/ui';

type PlaceRef = Pick<Location, 'id' | 'name'>;

/** A place the map already shows without room: the server would refuse the task. */
export const isFull = (place: Pick<YardLocation, 'free'>): boolean => place.free === 0;

export function proposeMove(
  trailerId: string,
  from: PlaceRef,
  to: PlaceRef & Pick<YardLocation, 'free'>,
): void {
  if (from.id === to.id) return;
  if (isFull(to)) return void toast.error(YARD_ERR.locationFull(to.name));
  useUi.getState().openCreateTask({
    trailer_id: trailerId,
    origin: from.name,
    origin_location_id: from.id,
    destination: to.name,
    destination_location_id: to.id,
  });
}

// Who a request acts as (CONTRACT §21): a signed-in user, or an API client acting as a manager. Services a
// key may reach take a Principal; a user's row is one as it is.
import type { Role, VehicleType } from '@shared/enums';
import { apiClientActor } from '@shared/labels';
import type { Actor } from './services/activity';

export interface Principal extends Actor {
  role: Role;
  /** A driver's task types (empty for an API client). */
  taskTypes: readonly VehicleType[];
  /** The API client behind a key; absent for a user. */
  clientId?: string;
}

/** An API client's principal: a manager without a user row, named `API · {name}`. */
export const clientPrincipal = (client: { id: string; name: string }): Principal => ({
  id: null,
  name: apiClientActor(client.name),
  role: 'manager',
  taskTypes: [],
  clientId: client.id,
});

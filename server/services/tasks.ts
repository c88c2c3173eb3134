// Tasks: rules and transactions (CONTRACT §5). Owned by the tasks-engine work.
import type { Actor } from './activity';

/** A driver who is deleted or stops being a conductor loses their active task to the pool. */
export function releaseDriverTask(_driverId: string, _actor: Actor): void {}

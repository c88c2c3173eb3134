// What a presence transition sets off (CONTRACT §4, §9): admins see the user's new state, the figures
// are pushed again, and a conductor coming online may be given pool work at once.
import { presentAdminUser } from '../presenters/users';
import { record } from '../changes/commit';
import { presence } from './presence';
import { findUserById } from './users';
import { runAssignment } from '../tasks/assignment';

/** Registers the effects; returns the function that removes them (the server calls it on close). */
export function registerPresenceEffects(): () => void {
  return presence.onChange(async (userId, online) => {
    const user = await findUserById(userId);
    if (!user) return;
    // Outside any transaction: recorded and pushed at once.
    record((changes) => {
      if (!user.deletedAt) changes.person({ kind: 'user', user: presentAdminUser(user) });
      changes.figuresChanged();
    });
    if (online && user.role === 'conductor') await runAssignment();
  });
}

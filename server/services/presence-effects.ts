// What a presence transition sets off (CONTRACT §4, §9): admins see the user's new state, the figures
// are pushed again, and a conductor coming online may be given pool work at once.
import { presentAdminUser } from '../presenters/users';
import * as emit from '../realtime/emit';
import { presence } from './presence';
import { findUserById } from './users';
import { runAssignment } from '../tasks/assignment';

/** Registers the effects; returns the function that removes them (the server calls it on close). */
export function registerPresenceEffects(): () => void {
  return presence.onChange(async (userId, online) => {
    const user = await findUserById(userId);
    if (!user) return;
    if (!user.deletedAt) emit.userChanged(presentAdminUser(user));
    emit.figuresChanged();
    if (online && user.role === 'conductor') await runAssignment();
  });
}

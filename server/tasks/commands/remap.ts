import { and, inArray, isNull, ne, or } from 'drizzle-orm';
import { placeKey } from '@shared/text';
import { db } from '../../db';
import { tasks } from '../../db/tables';
import { placesNamed, settleAllTrailers } from '../../services/yard';
import type { ChangeSet } from '../../changes/change-set';
import { writeTasksWhere } from '../apply';

/**
 * After the catalogue changed (CONTRACT §17): every task whose origin or destination text now equals an
 * active place's name or code points at it (texts matching none keep what they had) — a change of what
 * it shows (§19) —, then every trailer's position is settled again and its places told.
 */
export async function remapTasks(fx: ChangeSet): Promise<void> {
  const columns = [
    { text: tasks.origin, id: tasks.originLocationId, key: 'originLocationId' },
    { text: tasks.destination, id: tasks.destinationLocationId, key: 'destinationLocationId' },
  ] as const;
  for (const column of columns) {
    const texts = (await db.selectDistinct({ text: column.text }).from(tasks)).map((r) => r.text);
    const places = await placesNamed(texts);
    const textsByPlace = new Map<string, string[]>();
    for (const text of texts) {
      const place = places.get(placeKey(text));
      if (place) textsByPlace.set(place.id, [...(textsByPlace.get(place.id) ?? []), text]);
    }
    for (const [placeId, matching] of textsByPlace)
      await writeTasksWhere(
        and(inArray(column.text, matching), or(isNull(column.id), ne(column.id, placeId)))!,
        { [column.key]: placeId },
        fx,
      );
  }
  fx.yardPlacesChanged(await settleAllTrailers());
}

// Values the server generates once and every node must share (CONTRACT §18): kept in app_settings. The
// first node to need one writes it; any other, even starting at the same moment, reads that one.
import { eq } from 'drizzle-orm';
import { db, tx } from '../db';
import { appSettings } from '../db/tables';

/** The setting's value, generated (and kept) by the first caller when there is none. */
export function sharedSetting(key: string, generate: () => string): Promise<string> {
  return tx(async () => {
    // A concurrent first writer makes this insert wait for its commit, then do nothing.
    await db.insert(appSettings).values({ key, value: generate() }).onConflictDoNothing();
    const [row] = await db.select().from(appSettings).where(eq(appSettings.key, key));
    return row!.value;
  });
}

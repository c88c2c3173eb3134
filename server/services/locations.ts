// The yard's location catalogue (CONTRACT §17): list, create, edit, deactivate, and the CSV import (all
// lines or none). Every change maps the existing tasks to the catalogue again and settles where their
// trailers stand (services/yard.ts), in the same transaction.
import crypto from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { asc, eq } from 'drizzle-orm';
import {
  createLocationSchema,
  zodDetail,
  LOCATION_CSV_MAX_LINES,
  type CreateLocationData,
  type ImportLocationsResult,
  type Location,
  type UpdateLocationData,
} from '@shared/schemas';
import {
  LOCATION_CSV_COLUMNS,
  LOCATION_FIELD_LABELS,
  LOCATION_INPUT,
  YARD_ERR,
  YARD_LOG,
  YARD_MSG,
} from '@shared/labels';
import { placeKey } from '@shared/text';
import { csvDelimiter } from '@shared/csv';
import { db, insertRows } from '../db';
import { forUpdate, uniqueViolation } from '../db/dialect';
import { locations, type LocationRow } from '../db/tables';
import { now } from '../clock';
import { badRequest, conflict, notFound } from '../http/errors';
import { logActivity, type Actor } from './activity';
import { commit } from '../changes/commit';
import { remapTasks } from '../tasks/commands/remap';
import { placeInUse, presentLocation } from './yard';

/** GET /locations: the whole catalogue, deactivated places included (`active: false`), by zone and code. */
export async function listLocations(): Promise<Location[]> {
  const rows = await db.select().from(locations).orderBy(asc(locations.zone), asc(locations.code));
  return rows.map(presentLocation);
}

/** A refusal of the catalogue's unique indexes, as the 409 the user understands. */
function asTaken(err: unknown, data: { code?: string; name?: string }): unknown {
  const column = uniqueViolation(err);
  if (column === 'locations.code') return conflict(YARD_ERR.codeTaken(data.code ?? ''));
  if (column === 'locations.name_key') return conflict(YARD_ERR.nameTaken(data.name ?? ''));
  return err;
}

/**
 * A catalogue change, in one transaction: `work`, then every task mapped again (a re-pointed task is
 * bumped and pushed) and every trailer's place settled; staff screens are told which places changed once
 * it has committed.
 */
async function catalogueChange<T>(work: () => Promise<{ result: T; places: string[] }>): Promise<T> {
  return commit(async (fx) => {
    const { result, places } = await work();
    fx.yardPlacesChanged(places);
    await remapTasks(fx);
    return result;
  });
}

export async function createLocation(data: CreateLocationData, actor: Actor): Promise<Location> {
  return catalogueChange(async () => {
    const at = now();
    const [row] = await db
      .insert(locations)
      .values({
        id: crypto.randomUUID(),
        ...data,
        nameKey: placeKey(data.name),
        createdAt: at,
        updatedAt: at,
      })
      .returning()
      .catch((err: unknown) => {
        throw asTaken(err, data);
      });
    await logActivity('system', actor, YARD_LOG.created.action, YARD_LOG.created.details(row!));
    return { result: presentLocation(row!), places: [row!.id] };
  });
}

/**
 * PUT /admin/locations/{id} (and DELETE, as `active: false`). A place that holds a trailer or expects one
 * can neither be deactivated nor become a gate (409): its trailers would vanish from the map.
 */
export async function updateLocation(id: string, data: UpdateLocationData, actor: Actor): Promise<Location> {
  return catalogueChange(async () => {
    const [row] = await forUpdate(db.select().from(locations).where(eq(locations.id, id)));
    if (!row) throw notFound(YARD_ERR.locationNotFound);
    const { active, ...fields } = data;
    const patch: Partial<LocationRow> = {};
    const changed: string[] = [];
    for (const [key, value] of Object.entries(fields) as [keyof typeof fields, unknown][])
      if (value !== row[key]) {
        Object.assign(patch, { [key]: value });
        changed.push(LOCATION_FIELD_LABELS[key]);
      }
    if (active !== undefined && active !== (row.deactivatedAt === null)) {
      patch.deactivatedAt = active ? null : now();
      changed.push(LOCATION_FIELD_LABELS.active);
    }
    if (!changed.length) return { result: presentLocation(row), places: [] };
    const emptied = patch.deactivatedAt || (patch.kind === 'puerta' && row.kind !== 'puerta');
    if (emptied && (await placeInUse(id))) throw conflict(YARD_ERR.locationInUse(row.name));
    if (patch.name) patch.nameKey = placeKey(patch.name);
    const [next] = await db
      .update(locations)
      .set({ ...patch, updatedAt: now() })
      .where(eq(locations.id, id))
      .returning()
      .catch((err: unknown) => {
        throw asTaken(err, { code: data.code, name: data.name ?? row.name });
      });
    const log = patch.deactivatedAt ? YARD_LOG.deactivated : null;
    if (log) await logActivity('system', actor, log.action, log.details(next!));
    else
      await logActivity('system', actor, YARD_LOG.updated.action, YARD_LOG.updated.details(next!, changed));
    return { result: presentLocation(next!), places: [id] };
  });
}

// ---- CSV import -------------------------------------------------------------------------------------

/** Rows per INSERT of an import (13 columns: well under both engines' limits on parameters). */
const IMPORT_SLICE = 500;

interface CsvLine {
  line: number;
  data: CreateLocationData;
}

/** A whole number as a number (so the schema judges its range); anything else as typed, to be refused. */
const asNumber = (field: string): unknown => (/^-?\d+$/.test(field) ? Number(field) : field);

/**
 * The lines of a catalogue CSV (comma or semicolon separated, as Excel writes it in Spain: shared/csv.ts), each checked
 * against the same schema as a single create; every bad line is named by its line number in the file
 * (the header is line 1). Throws the 400 listing them all.
 */
export function parseLocationsCsv(csv: string): CsvLine[] {
  const delimiter = csvDelimiter(csv);
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(csv, {
      delimiter,
      bom: true,
      info: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
    }) as unknown as typeof records;
  } catch (err) {
    const line = (err as { lines?: number }).lines;
    throw badRequest(YARD_ERR.csvLines([YARD_ERR.csvLine(line ?? 1, YARD_ERR.csvQuotes)]));
  }
  const [header, ...rows] = records;
  if (!header || header.record.map((h) => h.toLowerCase()).join() !== LOCATION_CSV_COLUMNS.join())
    throw badRequest(YARD_ERR.csvHeader);
  if (!rows.length) throw badRequest(YARD_ERR.csvEmpty);
  if (records.at(-1)!.info.lines > LOCATION_CSV_MAX_LINES)
    throw badRequest(LOCATION_INPUT.csvTooLarge(LOCATION_CSV_MAX_LINES));

  const errors: string[] = [];
  const lines: CsvLine[] = [];
  const codes = new Map<string, number>();
  const names = new Map<string, number>();
  for (const { record, info } of rows) {
    const line = info.lines;
    if (record.length !== LOCATION_CSV_COLUMNS.length) {
      errors.push(YARD_ERR.csvLine(line, YARD_ERR.csvColumns(record.length)));
      continue;
    }
    const [code, name, kind, zone, capacity, x, y] = record as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const parsed = createLocationSchema.safeParse({
      code,
      name,
      kind: kind.toLowerCase(),
      zone,
      capacity: capacity === '' ? undefined : asNumber(capacity),
      x: asNumber(x),
      y: asNumber(y),
    });
    if (!parsed.success) {
      errors.push(YARD_ERR.csvLine(line, zodDetail(parsed.error)));
      continue;
    }
    const firstCode = codes.get(parsed.data.code);
    const firstName = names.get(placeKey(parsed.data.name));
    if (firstCode)
      errors.push(YARD_ERR.csvLine(line, YARD_ERR.csvDuplicateCode(parsed.data.code, firstCode)));
    else if (firstName)
      errors.push(YARD_ERR.csvLine(line, YARD_ERR.csvDuplicateName(parsed.data.name, firstName)));
    else {
      codes.set(parsed.data.code, line);
      names.set(placeKey(parsed.data.name), line);
      lines.push({ line, data: parsed.data });
    }
  }
  if (errors.length) throw badRequest(YARD_ERR.csvLines(errors));
  return lines;
}

/**
 * POST /admin/locations/import: every line creates a place or, when its code exists, updates it (and
 * makes it active again). All lines or none: a line whose name another active place keeps, or that would
 * empty a place in use into a gate, refuses the whole file, naming the line.
 */
export async function importLocations(csv: string, actor: Actor): Promise<ImportLocationsResult> {
  const lines = parseLocationsCsv(csv);
  return catalogueChange(async () => {
    const existing = await forUpdate(db.select().from(locations));
    const byCode = new Map(existing.map((l) => [l.code, l]));
    const importedCodes = new Set(lines.map((l) => l.data.code));
    // Names kept by active places the file does not touch.
    const keptNames = new Map(
      existing
        .filter((l) => l.deactivatedAt === null && !importedCodes.has(l.code))
        .map((l) => [l.nameKey, l.name]),
    );
    const errors: string[] = [];
    for (const { line, data } of lines) {
      const kept = keptNames.get(placeKey(data.name));
      const current = byCode.get(data.code);
      if (kept) errors.push(YARD_ERR.csvLine(line, YARD_ERR.nameTaken(kept)));
      else if (
        current &&
        data.kind === 'puerta' &&
        current.kind !== 'puerta' &&
        (await placeInUse(current.id))
      )
        errors.push(YARD_ERR.csvLine(line, YARD_ERR.locationInUse(current.name)));
    }
    if (errors.length) throw badRequest(YARD_ERR.csvLines(errors));

    const at = now();
    const places: string[] = [];
    // Names may move between the file's places (A takes B's name as B gets another): their old names are
    // released first, so the unique index never sees a name twice halfway.
    for (const { data } of lines) {
      const current = byCode.get(data.code);
      if (current && current.nameKey !== placeKey(data.name))
        await db
          .update(locations)
          .set({ nameKey: `#${current.id}` })
          .where(eq(locations.id, current.id));
    }
    const fresh: (typeof locations.$inferInsert)[] = [];
    for (const { data } of lines) {
      const current = byCode.get(data.code);
      const fields = { ...data, nameKey: placeKey(data.name), deactivatedAt: null, updatedAt: at };
      if (current) {
        await db.update(locations).set(fields).where(eq(locations.id, current.id));
        places.push(current.id);
      } else fresh.push({ id: crypto.randomUUID(), ...fields, createdAt: at });
    }
    // New places a few hundred per statement: a whole yard's catalogue in a handful of round trips.
    for (let i = 0; i < fresh.length; i += IMPORT_SLICE)
      await insertRows(locations, fresh.slice(i, i + IMPORT_SLICE));
    places.push(...fresh.map((l) => l.id));
    const created = fresh.length;
    const updated = lines.length - created;
    await logActivity('system', actor, YARD_LOG.imported.action, YARD_LOG.imported.details(created, updated));
    return { result: { message: YARD_MSG.imported(created, updated), created, updated }, places };
  });
}

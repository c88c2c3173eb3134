// The gate (CONTRACT §19 "Gate visits", §24): a visit is one truck's stay. An entry opens it and puts the
// trailer it drops at a place from that moment (a positional event `entry`); an exit closes it and takes
// the trailer it picks out of the yard from wherever it stands (`exit`). Where a trailer stands is settled
// by services/yard.ts: a positional event later than its latest completed move decides (docs/GATE.md).
import { and, asc, desc, eq, inArray, isNull, notInArray, or, sql } from 'drizzle-orm';
import type {
  GateEntryData,
  GateEntryResult,
  GateExitData,
  GateSuggestion,
  GateSuggestionsQuery,
  GateVisit,
  GateVisitsQuery,
  TruckStaysQuery,
  TruckStaysReport,
} from '@shared/schemas';
import { inspectionDamage } from '@shared/schemas';
import type { LocationKind } from '@shared/enums';
import {
  GATE_PICKED_AT_GATE_MS,
  GATE_SUGGESTIONS_MAX,
  GATE_WAIT_AMBER_S,
  TRAILER_VISITS_MAX,
} from '@shared/constants';
import { GATE_ERR, GATE_LOG } from '@shared/labels';
import { percentile, stayS, waitS } from '@shared/gate';
import { compareNatural } from '@shared/natural';
import { carrierKey, identityKey, plateKey } from '@shared/text';
import { madridDayRange } from '@shared/time';
import { db, tx } from '../db';
import { forUpdate } from '../db/dialect';
import { gateVisits, locations, tasks, trailers, type GateVisitRow } from '../db/tables';
import { now, nowMs } from '../clock';
import { badRequest, conflict, notFound } from '../http/errors';
import { logActivity, type Actor } from './activity';
import { claimPhotos } from './gate-photos';
import { loadTrailers, lockRecord, markDamaged } from './trailers';
import { occupancy, placeTrailer } from './yard';
import { record } from '../changes/commit';
import { openTaskSql } from '../tasks/visibility';
import type { Principal } from '../principal';

// ---- presenting ------------------------------------------------------------------------------------------

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentVisit(r: GateVisitRow, at: number = nowMs()): GateVisit {
  const times = {
    entered_at: iso(r.enteredAt)!,
    exited_at: iso(r.exitedAt),
    appointment_at: iso(r.appointmentAt),
  };
  return {
    id: r.id,
    truck_plate: r.truckPlate,
    carrier: r.carrier,
    driver_name: r.driverName,
    ...times,
    stay_s: stayS(times, at),
    wait_s: waitS(times, at),
    dropped_trailer_id: r.droppedTrailerId,
    picked_trailer_id: r.pickedTrailerId,
    entry_seal: r.entrySeal,
    exit_seal: r.exitSeal,
    seal_mismatch: r.sealMismatch,
  };
}

/** These visits as they stand (processors/sockets.ts: what `gate:changed` carries). */
export async function loadVisits(ids: readonly string[]): Promise<Map<string, GateVisit>> {
  const found = new Map<string, GateVisit>();
  if (!ids.length) return found;
  const at = nowMs();
  for (const r of await db
    .select()
    .from(gateVisits)
    .where(inArray(gateVisits.id, [...ids])))
    found.set(r.id, presentVisit(r, at));
  return found;
}

/** GET /gate/visits: the open ones (oldest first), or those that entered on a Madrid day. */
export async function listVisits(q: GateVisitsQuery): Promise<GateVisit[]> {
  let where;
  if (q.date) {
    const { start, end } = madridDayRange(q.date);
    where = and(sql`${gateVisits.enteredAt} >= ${start}`, sql`${gateVisits.enteredAt} < ${end}`);
  } else where = isNull(gateVisits.exitedAt);
  const at = nowMs();
  const rows = await db.select().from(gateVisits).where(where).orderBy(asc(gateVisits.enteredAt));
  return rows.map((r) => presentVisit(r, at));
}

/** A trailer's last visits (GET /trailers/{trailer_id}): those that dropped or picked it, newest first. */
export async function visitsOfTrailer(key: string): Promise<GateVisit[]> {
  const at = nowMs();
  const rows = await db
    .select()
    .from(gateVisits)
    .where(or(eq(gateVisits.droppedTrailerKey, key), eq(gateVisits.pickedTrailerKey, key)))
    .orderBy(desc(gateVisits.enteredAt))
    .limit(TRAILER_VISITS_MAX);
  return rows.map((r) => presentVisit(r, at));
}

// ---- suggestions -----------------------------------------------------------------------------------------

/** Kinds a dropped trailer is never sent to. */
const NOT_SUGGESTED: LocationKind[] = ['puerta', 'taller', 'bascula', 'lavadero'];

/**
 * GET /gate/suggestions: places with room, best first: a loaded trailer's `campa`, an empty or unknown
 * one's `aparcamiento`, then any other kind but a gate, a workshop, a weighbridge or a wash; ties by more
 * free room, then the natural order of names. Kind, ADR and reefer are not considered (§19).
 */
export async function suggestPlaces(q: GateSuggestionsQuery): Promise<GateSuggestion[]> {
  const preferred: LocationKind = q.load_state === 'cargado' ? 'campa' : 'aparcamiento';
  const [places, used] = await Promise.all([
    db
      .select()
      .from(locations)
      .where(and(isNull(locations.deactivatedAt), notInArray(locations.kind, NOT_SUGGESTED))),
    occupancy(null),
  ]);
  return places
    .map((p) => ({ p, free: p.capacity - (used.get(p.id) ?? 0) }))
    .filter((s) => s.free > 0)
    .sort(
      (a, b) =>
        Number(b.p.kind === preferred) - Number(a.p.kind === preferred) ||
        b.free - a.free ||
        compareNatural(a.p.name, b.p.name),
    )
    .slice(0, GATE_SUGGESTIONS_MAX)
    .map(({ p, free }) => ({
      location: { id: p.id, code: p.code, name: p.name, kind: p.kind, zone: p.zone },
      free,
    }));
}

// ---- entries ---------------------------------------------------------------------------------------------

/**
 * POST /gate/entries: opens the visit; a dropped trailer gets its record filled from the form and stands
 * at `location_id` from now. Refusals (§19): an unknown or inactive place, a gate (400), a full place, a
 * trailer already in the yard (409). The trailer's record is locked first, so two entries of one trailer
 * are decided one after the other (the second finds it in the yard); the place's room is checked by the
 * last step before the commit (changes/processors/yard.ts), with this entry's trailer already on it: entries
 * to one busy place wait on each other only for that count and the commit (PostgreSQL; a deadlock with a
 * task naming the same trailer and place is run again by tx()).
 */
export async function enterGate(input: GateEntryData, actor: Principal): Promise<GateEntryResult> {
  return tx(
    async () => {
      const id = crypto.randomUUID();
      const at = now();
      const t = input.trailer;
      let key: string | null = null;
      let trailerId: string | null = null;
      let placeName: string | null = null;
      if (t) {
        const [place] = await db
          .select()
          .from(locations)
          .where(and(eq(locations.id, t.location_id), isNull(locations.deactivatedAt)));
        if (!place) throw badRequest(GATE_ERR.unknownLocation);
        if (place.kind === 'puerta') throw badRequest(GATE_ERR.gateHoldsNoTrailer);
        key = plateKey(t.trailer_id);
        const row = await lockRecord(t.trailer_id);
        await refuseInYard(key); // under the lock: another entry may have placed it meanwhile
        trailerId = row.trailerId;
        placeName = place.name;
        await db
          .update(trailers)
          .set({
            loadState: t.load_state,
            carrier: input.carrier,
            seal: t.seal,
            reference: t.reference,
            ...(t.kind !== undefined && { kind: t.kind }),
            ...(t.adr !== undefined && { adr: t.adr }),
            ...(t.reefer_setpoint_c !== undefined && { reeferSetpointC: t.reefer_setpoint_c }),
          })
          .where(eq(trailers.trailerKey, key));
        await placeTrailer(key, place.id, 'entry', actor, null, at);
        if (t.inspection) {
          await claimPhotos(actor, t.inspection.photo_ids, id);
          const damage = inspectionDamage(t.inspection);
          if (damage.damaged) await markDamaged(key, damage.note!, actor);
        }
        const trailerKey = key;
        record((changes) => {
          changes.yardPlacesChanged([place.id]);
          changes.placesFilled([place.id]);
          changes.trailerChanged(trailerKey);
        });
      }
      const [visit] = await db
        .insert(gateVisits)
        .values({
          id,
          truckPlate: input.truck_plate,
          carrier: input.carrier,
          carrierKey: carrierKey(input.carrier),
          driverName: input.driver_name,
          appointmentAt: input.appointment_at ? new Date(input.appointment_at) : null,
          enteredAt: at,
          droppedTrailerId: trailerId,
          droppedTrailerKey: key,
          entrySeal: t?.seal ?? null,
          enteredBy: actor.id,
        })
        .returning();
      await logActivity(
        'gate',
        actor,
        GATE_LOG.entry.action,
        GATE_LOG.entry.details(input.truck_plate, input.carrier, trailerId, placeName),
      );
      record((changes) => changes.happen({ on: 'visit', visitId: id, type: 'opened' }));
      return {
        visit: presentVisit(visit!),
        trailer: key ? ((await loadTrailers([key])).get(key) ?? null) : null,
      };
    },
    { shownWriter: true },
  );
}

/** 409 `El remolque {trailer_id} ya está en el patio ({place})` when the trailer stands in the yard. */
async function refuseInYard(key: string): Promise<void> {
  const [standing] = await db
    .select({ trailerId: trailers.trailerId, place: locations.name })
    .from(trailers)
    .innerJoin(locations, eq(locations.id, trailers.locationId))
    .where(eq(trailers.trailerKey, key));
  if (standing) throw conflict(GATE_ERR.alreadyInYard(standing.trailerId, standing.place));
}

// ---- exits -----------------------------------------------------------------------------------------------

/**
 * POST /gate/exits: closes the visit; a picked trailer leaves the yard from wherever it stands (an `exit`
 * event). Not while it has an open task (409); a trailer whose latest move ended at a gate within 12 h
 * was taken there by a driver: accepted as picked; any other trailer not in the yard → 409. The exit's
 * seal is kept on the visit and flagged when it differs from the recorded one (the record keeps its own).
 */
export async function exitGate(input: GateExitData, actor: Actor): Promise<GateVisit> {
  return tx(
    async () => {
      const [visit] = await forUpdate(db.select().from(gateVisits).where(eq(gateVisits.id, input.visit_id)));
      if (!visit) throw notFound(GATE_ERR.visitNotFound);
      if (visit.exitedAt) throw conflict(GATE_ERR.visitClosed);
      const at = now();
      const t = input.trailer;
      let picked: { id: string; key: string; seal: string | null } | null = null;
      if (t) {
        const key = plateKey(t.trailer_id);
        const [row] = await forUpdate(db.select().from(trailers).where(eq(trailers.trailerKey, key)));
        if (!row) throw conflict(GATE_ERR.notInYard(t.trailer_id));
        const [open] = await db
          .select({ id: tasks.id })
          .from(tasks)
          .where(and(eq(tasks.trailerKey, key), openTaskSql))
          .limit(1);
        if (open) throw conflict(GATE_ERR.pendingMove);
        if (row.locationId) {
          const left = row.locationId;
          await placeTrailer(key, null, 'exit', actor, null, at);
          record((changes) => {
            changes.yardPlacesChanged([left]);
            changes.trailerChanged(key);
          });
        } else if (!(await droppedAtGateLately(key))) throw conflict(GATE_ERR.notInYard(row.trailerId));
        picked = { id: row.trailerId, key, seal: row.seal };
      }
      const exitSeal = t?.seal ?? null;
      await db
        .update(gateVisits)
        .set({
          exitedAt: at,
          exitedBy: actor.id,
          pickedTrailerId: picked?.id ?? null,
          pickedTrailerKey: picked?.key ?? null,
          exitSeal,
          sealMismatch: !!(exitSeal && picked?.seal && identityKey(exitSeal) !== identityKey(picked.seal)),
        })
        .where(eq(gateVisits.id, visit.id));
      await logActivity(
        'gate',
        actor,
        GATE_LOG.exit.action,
        GATE_LOG.exit.details(visit.truckPlate, visit.carrier, picked?.id ?? null),
      );
      record((changes) => changes.happen({ on: 'visit', visitId: visit.id, type: 'closed' }));
      const [closed] = await db.select().from(gateVisits).where(eq(gateVisits.id, visit.id));
      return presentVisit(closed!);
    },
    { shownWriter: true },
  );
}

/** Whether the trailer's latest completed move ended at a gate within the last 12 h. */
async function droppedAtGateLately(key: string): Promise<boolean> {
  const [move] = await db
    .select({ completedAt: tasks.completedAt, kind: locations.kind })
    .from(tasks)
    .leftJoin(locations, eq(locations.id, tasks.destinationLocationId))
    .where(and(eq(tasks.trailerKey, key), eq(tasks.status, 'finalizada'), isNull(tasks.deletedAt)))
    .orderBy(desc(tasks.completedAt))
    .limit(1);
  return (
    !!move?.completedAt &&
    move.kind === 'puerta' &&
    nowMs() - move.completedAt.getTime() <= GATE_PICKED_AT_GATE_MS
  );
}

// ---- waiting times ---------------------------------------------------------------------------------------

/**
 * GET /admin/reports/truck-stays: the closed visits whose exit falls in the Madrid days `from`…`to`, per
 * carrier (grouped by carrierKey(), named by the first spelling seen; the most visits first) with the
 * median, p90 (nearest rank) and longest wait and how many passed 1 h; and those visits, longest first.
 */
export async function truckStays(q: TruckStaysQuery): Promise<TruckStaysReport> {
  const start = madridDayRange(q.from).start;
  const end = madridDayRange(q.to).end;
  const rows = await db
    .select()
    .from(gateVisits)
    .where(and(sql`${gateVisits.exitedAt} >= ${start}`, sql`${gateVisits.exitedAt} < ${end}`))
    .orderBy(asc(gateVisits.exitedAt));
  const visits = rows.map((r) => presentVisit(r));
  const groups = new Map<string, { carrier: string; waits: number[] }>();
  visits.forEach((v, i) => {
    const key = rows[i]!.carrierKey;
    const group = groups.get(key) ?? { carrier: v.carrier, waits: [] };
    group.waits.push(v.wait_s);
    groups.set(key, group);
  });
  const carriers = [...groups.values()]
    .map(({ carrier, waits }) => {
      const sorted = [...waits].sort((a, b) => a - b);
      return {
        carrier,
        visits: sorted.length,
        p50_s: percentile(sorted, 0.5),
        p90_s: percentile(sorted, 0.9),
        max_s: sorted[sorted.length - 1]!,
        over_1h: sorted.filter((w) => w > GATE_WAIT_AMBER_S).length,
      };
    })
    .sort((a, b) => b.visits - a.visits || compareNatural(a.carrier, b.carrier));
  return {
    period: { from: q.from, to: q.to },
    carriers,
    visits: visits.filter((v) => v.wait_s > GATE_WAIT_AMBER_S).sort((a, b) => b.wait_s - a.wait_s),
  };
}

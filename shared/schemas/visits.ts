// A truck's stay at the gate (CONTRACT §19 "Gate visits"): its own file, as both the gate's answers and a
// trailer's detail (./trailers.ts) show visits, and the gate's answers show trailers.
import { z } from 'zod';
import { idSchema } from './common';
import { isoDateTime } from './tasks';

/** One truck's stay. `stay_s` ticks while open, `wait_s` is §19's wait. */
export const gateVisitSchema = z
  .object({
    id: idSchema,
    truck_plate: z.string(),
    carrier: z.string(),
    driver_name: z.string().nullable(),
    appointment_at: isoDateTime.nullable(),
    entered_at: isoDateTime,
    exited_at: isoDateTime.nullable(),
    stay_s: z.number().int(),
    wait_s: z.number().int(),
    dropped_trailer_id: z.string().nullable(),
    picked_trailer_id: z.string().nullable(),
    entry_seal: z.string().nullable(),
    exit_seal: z.string().nullable(),
    /** The exit's seal differs from the picked trailer's recorded one (kept, and flagged). */
    seal_mismatch: z.boolean(),
  })
  .meta({ id: 'GateVisit' });
export type GateVisit = z.output<typeof gateVisitSchema>;

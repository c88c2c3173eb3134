// The living yard of `npm run demo`: a simulated gestor creates tasks every few seconds and simulated
// drivers work shifts, all through the real HTTP API (and sockets, so the drivers count as online):
// - the gestor moves trailers of the yard's own fleet (read from the searcher: where each one stands
//   now), never one that already has an open task, with the generator's vocabulary (places, plates,
//   notes, the same mix of types and priorities), and waits while the pool is full;
// - a driver clocks in, gets automatic tasks from the engine, claims Swap tasks when they have the type,
//   works each one a short random time, completes it or now and then returns it with a reason, and
//   clocks out when the shift ends (after finishing the task in hand), to come back after a break;
// - the gate (the gestor at Portería) has a few trucks in the yard from the start and, every while, lets
//   one in (a carrier's truck, most dropping a trailer at a place GET /gate/suggestions offers, its
//   inspection now and then finding something wrong) or lets the oldest one out, often taking a trailer
//   an earlier truck left.
import type {
  GateEntryInput,
  GateEntryResult,
  GateExitResult,
  GateSuggestion,
  GateVisit,
  GateVisitList,
  InspectionInput,
  MessageResponse,
  SearchTask,
  Task,
  TimeclockStatus,
  YardLocation,
} from '@shared/schemas';
import { INSPECTION_CODES } from '@shared/schemas';
import type { LoadState } from '@shared/enums';
import { madridDay } from '@shared/time';
import { Rng } from '../generator/random';
import { PRIORITY_WEIGHTS, RETURN_WEIGHTS, TYPE_WEIGHTS } from '../generator/tasks';
import {
  CARRIERS,
  description,
  initialPlace,
  moveFor,
  placeNamed,
  personName,
  planOf,
  plate,
  truckPlate,
  type Place,
} from '../generator/vocabulary';
import { DemoClient, isConflict } from './client';
import { DEMO_TEXT } from './texts';

type Range = readonly [min: number, max: number];

/** How fast the yard moves (ms). The demo's defaults keep a wall screen busy without flooding it. */
export interface Pace {
  /** Between two tasks of the gestor. */
  createEvery: Range;
  /** The gestor waits while the pool holds this many tasks. */
  maxPool: number;
  /** Between two looks of a driver at their work. */
  tick: Range;
  /** From a task in hand to done. */
  work: Range;
  returnChance: number;
  /** Chance per look that an idle driver claims the oldest Swap task available to them. */
  claimChance: number;
  shift: Range;
  /** Off shift between two shifts. */
  rest: Range;
  /** Before the first clock-in of a driver who is not clocked in when the demo starts. */
  firstClockIn: Range;
  /** Between two trucks at the gate (an entry or an exit). */
  gateEvery: Range;
  /** Trucks in the yard (open visits) once the demo has started. */
  openVisits: number;
  /** With this many trucks in, the gate lets the oldest out; with fewer, one look in two. */
  maxOpenVisits: number;
  /** Chance that an entry's inspection finds something wrong (the trailer is marked damaged). */
  damageChance: number;
}

// Five drivers on shift most of the time finish about one task every 7 s; a task every 10 s keeps them
// busy three quarters of the time, so the pool drains now and then and Swap tasks get claimed too.
export const DEMO_PACE: Pace = {
  createEvery: [6_000, 14_000],
  maxPool: 12,
  tick: [1_500, 3_000],
  work: [15_000, 50_000],
  returnChance: 0.1,
  claimChance: 0.4,
  shift: [5 * 60_000, 10 * 60_000],
  rest: [30_000, 90_000],
  firstClockIn: [0, 20_000],
  gateEvery: [20_000, 45_000],
  openVisits: 4,
  maxOpenVisits: 8,
  damageChance: 0.1,
};

// The same mix of types, priorities and return reasons as the generated history.
const weights = <K extends string>(w: Record<K, number>) => Object.entries(w) as [K, number][];
const TYPES = weights(TYPE_WEIGHTS);
const PRIORITIES = weights(PRIORITY_WEIGHTS);
const REASONS = weights(RETURN_WEIGHTS);
/** Share of the gestor's tasks for a trailer that just arrived (not yet in the fleet). */
const NEW_TRAILER_CHANCE = 0.1;
/** Days of history the gestor reads to learn the fleet and where each trailer stands. */
const FLEET_DAYS = 7;

export interface SimulationCounts {
  created: number;
  clockIns: number;
  clockOuts: number;
  received: number;
  claimed: number;
  completed: number;
  returned: number;
  gateEntries: number;
  gateExits: number;
  errors: number;
}

type Say = (line: string) => void;

/** A loop of one simulated person: one step at a time, a random pause between steps. */
abstract class Bot {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  protected stopped = false;

  constructor(
    readonly client: DemoClient,
    protected readonly rng: Rng,
    protected readonly pace: Pace,
    protected readonly counts: SimulationCounts,
    protected readonly say: Say,
  ) {}

  protected abstract step(): Promise<void>;
  protected abstract pause(): number;

  protected wait(range: Range): number {
    return this.rng.between(range[0], range[1]);
  }

  schedule(ms = this.pause()): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.step()
        .catch((err: unknown) => {
          // A race lost to another driver or a trailer taken meanwhile is part of a yard's life.
          if (isConflict(err) || this.stopped) return;
          this.counts.errors += 1;
          this.say(DEMO_TEXT.failed(this.client.name, err instanceof Error ? err.message : String(err)));
        })
        .finally(() => this.schedule());
    }, ms);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    this.client.close();
  }
}

interface Trailer {
  place: Place;
  swapBody: boolean;
}

class GestorBot extends Bot {
  private readonly fleet = new Map<string, Trailer>();

  protected pause(): number {
    return this.wait(this.pace.createEvery);
  }

  /** The fleet as the searcher shows it: every trailer moved lately, and where its last move left it. */
  async learnFleet(): Promise<void> {
    const since = madridDay(Date.now() - FLEET_DAYS * 24 * 3_600_000);
    const tasks = await this.client.get<SearchTask[]>(
      `/admin/search/tasks?search_type=all&date_from=${since}`,
    );
    for (const t of tasks) {
      if (this.fleet.has(t.trailer_id)) continue;
      const place = placeNamed(t.trailer_last_location ?? t.origin);
      if (place) this.fleet.set(t.trailer_id, { place, swapBody: t.vehicle_type === 'swap' });
    }
  }

  protected async step(): Promise<void> {
    const board = await this.client.get<Task[]>('/tasks');
    if (board.filter((t) => t.status === 'bolsa_trabajo').length >= this.pace.maxPool) return;
    // Only places with room (CONTRACT §17): the yard as it stands now.
    const yard = await this.client.get<YardLocation[]>('/yard');
    const plan = planOf(yard);
    const room = new Map(yard.map((l) => [l.name, l.free ?? 0]));
    const open = new Set(board.filter((t) => t.status !== 'finalizada').map((t) => t.trailer_id));
    const type = this.rng.weighted(TYPES);
    const swapBody = type === 'swap';
    const free = [...this.fleet].filter(([id, t]) => t.swapBody === swapBody && !open.has(id));
    let entry: [string, Trailer];
    if (!free.length || this.rng.chance(NEW_TRAILER_CHANCE)) {
      let id = plate(this.rng, swapBody);
      while (this.fleet.has(id)) id = plate(this.rng, swapBody);
      entry = [id, { place: initialPlace(this.rng, swapBody, plan), swapBody }];
      this.fleet.set(...entry);
    } else entry = this.rng.pick(free);
    const [trailerId, trailer] = entry;
    const move = moveFor(this.rng, type, trailer.place, plan, (p) => (room.get(p.name) ?? 0) > 0);
    const task = await this.client.post<Task>('/tasks', {
      title: move.title,
      description: description(this.rng),
      origin: trailer.place.name,
      destination: move.destination.name,
      trailer_id: trailerId,
      priority: this.rng.weighted(PRIORITIES),
      vehicle_type: type,
    });
    // Once moved, that is where the trailer stands for its next task.
    trailer.place = move.destination;
    this.counts.created += 1;
    this.say(DEMO_TEXT.created(this.client.name, task));
  }
}

class DriverBot extends Bot {
  private onShift = false;
  private nextChange = 0;
  /** The task in hand and when it will be done. */
  private current: { id: string; doneAt: number } | undefined;

  protected pause(): number {
    return this.wait(this.pace.tick);
  }

  /** Picks up the shift where the yard left it: clocked in or not. */
  async begin(): Promise<void> {
    const status = await this.client.get<TimeclockStatus>('/timeclock/status');
    this.onShift = status.status === 'clocked_in';
    this.nextChange = Date.now() + this.wait(this.onShift ? this.pace.shift : this.pace.firstClockIn);
  }

  protected async step(): Promise<void> {
    const now = Date.now();
    if (!this.onShift) {
      if (now < this.nextChange) return;
      await this.client.post('/timeclock/punch?clock_type=entrada');
      this.onShift = true;
      this.nextChange = now + this.wait(this.pace.shift);
      this.counts.clockIns += 1;
      this.say(DEMO_TEXT.clockIn(this.client.name));
      return;
    }
    const active = await this.client.maybe<Task>('/tasks/my-active');
    if (active) return this.work(active, now);
    this.current = undefined;
    if (now >= this.nextChange) {
      await this.client.post('/timeclock/punch?clock_type=salida');
      this.onShift = false;
      this.nextChange = now + this.wait(this.pace.rest);
      this.counts.clockOuts += 1;
      this.say(DEMO_TEXT.clockOut(this.client.name));
      return;
    }
    // Empty for a driver without the Swap type.
    const swaps = await this.client.get<Task[]>('/tasks/swap-available');
    if (!swaps.length || !this.rng.chance(this.pace.claimChance)) return;
    const oldest = swaps.reduce((a, b) => (a.created_at <= b.created_at ? a : b));
    await this.client.post<MessageResponse>(`/tasks/${oldest.id}/self-assign`);
    this.current = { id: oldest.id, doneAt: now + this.wait(this.pace.work) };
    this.counts.claimed += 1;
    this.say(DEMO_TEXT.claimed(this.client.name, oldest));
  }

  private async work(task: Task, now: number): Promise<void> {
    if (this.current?.id !== task.id) {
      // Given by the engine (or by staff) since the last look.
      this.current = { id: task.id, doneAt: now + this.wait(this.pace.work) };
      this.counts.received += 1;
      this.say(DEMO_TEXT.received(this.client.name, task));
      return;
    }
    if (now < this.current.doneAt) return;
    // At the end of the shift the task in hand is finished, never handed back.
    if (now < this.nextChange && this.rng.chance(this.pace.returnChance)) {
      const reason = this.rng.weighted(REASONS);
      await this.client.post(`/tasks/${task.id}/return`, { reason });
      this.counts.returned += 1;
      this.say(DEMO_TEXT.returned(this.client.name, task, reason));
    } else {
      await this.client.post(`/tasks/${task.id}/complete`);
      this.counts.completed += 1;
      this.say(DEMO_TEXT.completed(this.client.name, task));
    }
    this.current = undefined;
  }
}

/** What an inspection at the gate finds now and then: the item and the note the porter writes. */
const FAULTS: readonly (readonly [(typeof INSPECTION_CODES)[number], string | null])[] = [
  ['luces', 'Piloto trasero roto'],
  ['neumaticos', 'Rueda desgastada'],
  ['lona_techo', 'Lona rasgada'],
  ['puertas', null],
  ['chasis', 'Golpe en el paragolpes'],
];
/** Trucks that drop a trailer; the rest come only to take one (or with nothing). */
const DROP_CHANCE = 0.85;
/** Trucks leaving that take a trailer an earlier truck left. */
const PICK_CHANCE = 0.6;

class GateBot extends Bot {
  /** Trailers the gate left in the yard, oldest first: the next trucks take them. */
  private readonly left: string[] = [];

  protected pause(): number {
    return this.wait(this.pace.gateEvery);
  }

  /** Trucks in the yard now: opens visits until there are `openVisits`. */
  async begin(): Promise<void> {
    const { visits } = await this.client.get<GateVisitList>('/gate/visits?open=true');
    for (const v of visits) if (v.dropped_trailer_id) this.left.push(v.dropped_trailer_id);
    for (let i = visits.length; i < this.pace.openVisits; i++) await this.enter();
  }

  protected async step(): Promise<void> {
    const { visits } = await this.client.get<GateVisitList>('/gate/visits?open=true');
    const oldest = visits[0];
    if (oldest && (visits.length >= this.pace.maxOpenVisits || this.rng.chance(0.5)))
      return this.exit(oldest);
    return this.enter();
  }

  private async enter(): Promise<void> {
    const rng = this.rng;
    const loadState: LoadState = rng.chance(0.6) ? 'cargado' : 'vacio';
    const body: GateEntryInput = {
      truck_plate: truckPlate(rng),
      carrier: rng.pick(CARRIERS),
      driver_name: rng.chance(0.7) ? personName(rng).name : null,
      appointment_at: rng.chance(0.4)
        ? new Date(Date.now() + rng.between(-30, 20) * 60_000).toISOString()
        : null,
    };
    let place: string | null = null;
    if (rng.chance(DROP_CHANCE)) {
      const offered = await this.client.get<GateSuggestion[]>(`/gate/suggestions?load_state=${loadState}`);
      if (offered.length) {
        const { location } = rng.pick(offered.slice(0, 3));
        place = location.name;
        body.trailer = {
          trailer_id: plate(rng, false),
          load_state: loadState,
          seal: loadState === 'cargado' ? String(rng.int(100000, 999999)) : null,
          location_id: location.id,
          inspection: this.inspection(),
        };
      }
    }
    const { visit } = await this.client.post<GateEntryResult>('/gate/entries', body);
    if (visit.dropped_trailer_id) this.left.push(visit.dropped_trailer_id);
    this.counts.gateEntries += 1;
    this.say(DEMO_TEXT.gateEntry(this.client.name, visit, place));
  }

  /** Every item checked; now and then one is not ok. */
  private inspection(): InspectionInput {
    const fault = this.rng.chance(this.pace.damageChance) ? this.rng.pick(FAULTS) : null;
    return {
      items: INSPECTION_CODES.map((code) =>
        code === fault?.[0] ? { code, ok: false, note: fault[1] } : { code, ok: true, note: null },
      ),
      photo_ids: [],
    };
  }

  private async exit(visit: GateVisit): Promise<void> {
    // Never the trailer the truck itself dropped: it takes one an earlier truck left.
    const i = this.left.findIndex((id) => id !== visit.dropped_trailer_id);
    const trailerId = i >= 0 && this.rng.chance(PICK_CHANCE) ? this.left.splice(i, 1)[0] : undefined;
    const { visit: closed } = await this.client.post<GateExitResult>('/gate/exits', {
      visit_id: visit.id,
      ...(trailerId && { trailer: { trailer_id: trailerId } }),
    });
    this.counts.gateExits += 1;
    this.say(DEMO_TEXT.gateExit(this.client.name, closed));
  }
}

export interface Account {
  email: string;
  password: string;
}

export interface Simulation {
  counts: SimulationCounts;
  stop: () => Promise<void>;
}

/** Logs the gestor and the drivers in, connects their sockets and sets the yard moving. */
export async function startSimulation(opts: {
  url: string;
  gestor: Account;
  drivers: Account[];
  pace?: Pace;
  seed?: number;
  say?: Say;
}): Promise<Simulation> {
  const pace = opts.pace ?? DEMO_PACE;
  const say = opts.say ?? (() => undefined);
  const root = new Rng(opts.seed ?? Date.now());
  const counts: SimulationCounts = {
    created: 0,
    clockIns: 0,
    clockOuts: 0,
    received: 0,
    claimed: 0,
    completed: 0,
    returned: 0,
    gateEntries: 0,
    gateExits: 0,
    errors: 0,
  };
  const client = (a: Account) => new DemoClient(opts.url, a.email, a.password);

  const gestor = new GestorBot(client(opts.gestor), root.fork('gestor'), pace, counts, say);
  // The gate is the gestor's too (Portería is a staff screen), with a session of its own.
  const gate = new GateBot(client(opts.gestor), root.fork('gate'), pace, counts, say);
  const drivers = opts.drivers.map(
    (a, i) => new DriverBot(client(a), root.fork(`driver-${i}`), pace, counts, say),
  );
  for (const bot of [gestor, ...drivers]) {
    await bot.client.login();
    await bot.client.connect();
  }
  await gate.client.login();
  await gestor.learnFleet();
  await gate.begin();
  for (const d of drivers) await d.begin();
  const bots = [gestor, gate, ...drivers];
  for (const bot of bots) bot.schedule();
  return {
    counts,
    stop: async () => {
      await Promise.all(bots.map((b) => b.stop()));
    },
  };
}

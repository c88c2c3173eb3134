// The yard's tasks: a history replayed in creation order (each trailer leaves from where its last move
// left it; each task goes to a driver on shift and free, the way the engine would, or waits for one),
// then the board as it is now: tasks in progress, each with its own clocked-in driver, and the pool.
import { plateKey } from '@shared/text';
import type { Priority, ReturnReason, TaskStatus, VehicleType } from '@shared/enums';
import { TASK_LOG, TASK_NOTIFICATION } from '@shared/labels';
import { madridOffsetMs } from '@shared/time';
import type { Person } from './people';
import type { Rng } from './random';
import { LONGEST_SHIFT_MS, type Driver, type Shift } from './shifts';
import {
  description,
  initialPlace,
  moveFor,
  plate,
  type CataloguePlace,
  type Place,
  type YardPlan,
} from './vocabulary';
import type { Writer } from './writer';

const MIN = 60_000;
const HOUR = 60 * MIN;

export const TYPE_WEIGHTS: Record<VehicleType, number> = {
  semiremolque: 72,
  semiremolque_out_km0: 13,
  swap: 15,
};
/** Swap tasks wait in the pool until someone claims them, so the pool holds more of them. */
const POOL_TYPE_WEIGHTS: Record<VehicleType, number> = {
  semiremolque: 55,
  semiremolque_out_km0: 15,
  swap: 30,
};
export const PRIORITY_WEIGHTS: Record<Priority, number> = { normal: 75, high: 17, low: 8 };
export const RETURN_WEIGHTS: Record<ReturnReason, number> = {
  'Remolque no encontrado': 35,
  'Remolque dañado': 20,
  'Ubicación ocupada': 30,
  Otro: 15,
};
/** Minutes, as [range, weight]: from creation to assignment, and from assignment to completion. */
const AUTO_DELAY = [[[0.1, 3], 80], [[3, 10], 11], [[10, 30], 7], [[30, 55], 2]] as const; // prettier-ignore
const SWAP_DELAY = [[[1, 12], 68], [[12, 30], 22], [[30, 55], 10]] as const; // prettier-ignore
const WORK_TIME = [[[5, 25], 78], [[25, 40], 15], [[40, 110], 7]] as const; // prettier-ignore
/** Creations per Madrid weekday (Sunday first): the yard is quieter at the weekend. */
const WEEKDAY_WEIGHT = [0.45, 1, 1, 1, 1, 1, 0.7];
/** Work is planned for the drivers on shift; this much of it arrives when nobody is. */
const UNSTAFFED_WEIGHT = 0.05;
/** And a task of a type that no driver on shift has is this much rarer. */
const UNSTAFFED_TYPE_WEIGHT = 0.05;
const BUCKET_MS = 15 * MIN;
/**
 * A task waits at most this long for a driver (the next shift, after a night with nobody of its type);
 * past it the yard has more work than its drivers can do, and the task goes to a driver still busy.
 */
const LONGEST_WAIT_MS = 14 * HOUR;
/** History ends a little before now, so every historical task is finished and the drivers on shift free. */
const HISTORY_END_MS = 70 * MIN;
const SETTLE_MS = 5 * MIN;

interface Trailer {
  plate: string;
  swapBody: boolean;
  place: Place;
  /** When its latest move ended: it is not moved twice at once. */
  freeAt: number;
  open: boolean;
}

interface Found {
  driver: Driver | null;
  at: number;
  freeNow: boolean;
}

interface Assignment {
  driver: Driver;
  at: number;
  by: 'engine' | 'staff' | 'self';
  staff: Person | null;
}

const entries = <K extends string>(w: Record<K, number>, keep: (k: K) => boolean = () => true) =>
  (Object.entries(w) as [K, number][]).filter(([k]) => keep(k));

export class TaskSimulation {
  private readonly semis: Trailer[] = [];
  private readonly swapBodies: Trailer[] = [];
  private readonly plates = new Set<string>();
  /**
   * Each catalogue place by name, and how many trailers count against it: those standing there without
   * an open task plus those an open task sends there (CONTRACT §17). The simulation sets a trailer's
   * place to its destination as soon as the task is created, so the count is simply the trailers whose
   * place it is.
   */
  private readonly places = new Map<string, { id: string; capacity: number; used: number }>();
  private readonly hasRoom = (p: Place) => {
    const place = this.places.get(p.name)!;
    return place.used < place.capacity;
  };
  private occupy(p: Place, n: 1 | -1): void {
    this.places.get(p.name)!.used += n;
  }
  private readonly byType: Record<VehicleType, Driver[]>;
  /** Every shift of the drivers having each type, by start. */
  private readonly shiftsByType: Record<VehicleType, (Shift & { driver: Driver })[]>;
  private readonly types: VehicleType[];
  private readonly offsets = new Map<number, number>();
  /** Drivers on shift per quarter hour of the history window. */
  private readonly staffing: number[];

  constructor(
    private readonly rng: Rng,
    private readonly ids: Rng,
    private readonly w: Writer,
    private readonly drivers: Driver[],
    private readonly staff: [Person, number][],
    private readonly opts: { nowMs: number; historyStart: number; notifyFrom: number; fleet: number },
    private readonly yard: { plan: YardPlan; places: (CataloguePlace & { id: string })[] },
  ) {
    for (const place of yard.places)
      this.places.set(place.name, { id: place.id, capacity: place.capacity, used: 0 });
    this.byType = { semiremolque: [], semiremolque_out_km0: [], swap: [] };
    for (const d of drivers) for (const t of d.person.taskTypes) this.byType[t].push(d);
    this.types = (Object.keys(this.byType) as VehicleType[]).filter((t) => this.byType[t].length);
    const shiftsOf = (type: VehicleType) =>
      this.byType[type]
        .flatMap((driver) => driver.shifts.map((s) => ({ ...s, driver })))
        .sort((a, b) => a.start - b.start);
    this.shiftsByType = {
      semiremolque: shiftsOf('semiremolque'),
      semiremolque_out_km0: shiftsOf('semiremolque_out_km0'),
      swap: shiftsOf('swap'),
    };
    for (let i = 0; i < opts.fleet; i++) this.addTrailer(false);
    for (let i = 0; i < Math.ceil(opts.fleet / 5); i++) this.addTrailer(true);
    const buckets = Math.ceil((opts.nowMs - opts.historyStart) / BUCKET_MS);
    this.staffing = new Array<number>(buckets).fill(0);
    for (const d of drivers)
      for (const s of d.shifts) {
        const from = Math.max(0, Math.ceil((s.start - opts.historyStart) / BUCKET_MS));
        const to = Math.min(
          buckets,
          Math.ceil((Math.min(s.end, opts.nowMs) - opts.historyStart) / BUCKET_MS),
        );
        for (let i = from; i < to; i++) this.staffing[i] += 1;
      }
  }

  get trailerCount(): number {
    return this.plates.size;
  }

  /** Whether a trailer of the fleet has this plate. */
  readonly hasPlate = (p: string): boolean => this.plates.has(p);

  // ---- history ----------------------------------------------------------------------------------

  /** `count` finished tasks created over the history window, oldest first, written as they go. */
  async history(count: number): Promise<void> {
    const end = this.opts.nowMs - HISTORY_END_MS;
    const most = Math.max(1, ...this.staffing) + UNSTAFFED_WEIGHT;
    const times: number[] = [];
    while (times.length < count) {
      const t = this.rng.between(this.opts.historyStart, end);
      if (this.rng.next() * most < this.creationWeight(t)) times.push(t);
    }
    times.sort((a, b) => a - b);
    for (const createdAt of times) {
      this.finishedTask(createdAt);
      await this.w.drain();
    }
  }

  private finishedTask(createdAt: number): void {
    const rng = this.rng;
    // The gestores mostly plan work that someone on shift can do; now and then it has to wait.
    const type = rng.weighted(
      entries(TYPE_WEIGHTS, (t) => this.types.includes(t)).map(
        ([t, w]) => [t, this.staffed(t, createdAt) ? w : w * UNSTAFFED_TYPE_WEIGHT] as const,
      ),
    );
    const trailer = this.takeTrailer(type === 'swap', createdAt);
    const task = this.newTask(type, trailer, createdAt);
    const limit = this.opts.nowMs - SETTLE_MS;

    // A few tasks are created by mistake and deleted before anybody takes them.
    if (rng.chance(0.006)) {
      const deletedAt = createdAt + rng.between(3, 40) * MIN;
      this.w.event(task.id, 'deleted', deletedAt, { actorId: task.creator.id, from: 'bolsa_trabajo' });
      this.w.log(
        'task',
        task.creator,
        TASK_LOG.deleted.action,
        TASK_LOG.deleted.details(task.named),
        deletedAt,
      );
      trailer.freeAt = deletedAt;
      // The trailer stays: its slot is counted again, the destination's reservation goes.
      this.occupy(task.destination, -1);
      this.occupy(task.origin, 1);
      this.writeTask(task, {
        status: 'bolsa_trabajo',
        version: 2,
        updatedAt: deletedAt,
        statusSince: createdAt,
        deletedAt,
      });
      return;
    }

    const first = this.findDriver(type, createdAt, null);
    const noDriversAvailable = type === 'swap' ? null : !first.freeNow;
    let assignment = this.assignment(type, first, createdAt, null);
    let returned: { by: Driver; at: number } | null = null;
    if (assignment.at < limit - 6 * HOUR && rng.chance(0.04)) {
      const at = assignment.at + rng.between(2, 15) * MIN;
      this.assigned(task, assignment);
      this.returned(task, assignment.driver, at);
      returned = { by: assignment.driver, at };
      const by = assignment.driver;
      assignment = this.assignment(type, this.findDriver(type, at, by), at, by);
    }
    const completedAt = Math.max(
      assignment.at + 3 * MIN,
      Math.min(assignment.at + this.minutes(WORK_TIME), limit - rng.between(0, 3) * MIN),
    );
    this.assigned(task, assignment);
    const driver = assignment.driver;
    driver.movements += 1;
    driver.busyUntil = Math.max(driver.busyUntil, completedAt);
    driver.idleSince = Math.max(driver.idleSince ?? 0, completedAt);
    trailer.place = task.destination;
    trailer.freeAt = completedAt;

    // Now and then a gestor drags the card to Finalizada for the driver (it credits the driver all the same).
    const closer = rng.chance(0.03) ? rng.weighted(this.staff) : driver.person;
    this.w.event(task.id, 'completed', completedAt, {
      actorId: closer.id,
      driverId: driver.person.id,
      from: 'en_proceso',
      to: 'finalizada',
    });
    this.w.log(
      'task',
      closer,
      TASK_LOG.completed.action,
      TASK_LOG.completed.details(task.named, driver.person.name),
      completedAt,
    );
    if (completedAt >= this.opts.notifyFrom)
      this.w.notify(
        driver.person.id,
        'congratulations',
        {
          title: TASK_NOTIFICATION.congratulations.title,
          message: TASK_NOTIFICATION.congratulations.message(task.named, driver.movements),
        },
        completedAt,
        { taskId: task.id, isRead: true },
      );
    this.writeTask(task, {
      status: 'finalizada',
      version: returned ? 5 : 3,
      updatedAt: completedAt,
      assignedTo: driver.person.id,
      creditedTo: driver.person.id,
      assignedAt: assignment.at,
      completedAt,
      returnedBy: returned?.by.person.id ?? null,
      returnedAt: returned?.at ?? null,
      noDriversAvailable,
    });
  }

  // ---- the board now ----------------------------------------------------------------------------

  /** Open tasks: `inProgress` of them each held by its own clocked-in driver, the rest in the pool. */
  current(open: number, inProgress: number): void {
    const rng = this.rng;
    const now = this.opts.nowMs;
    const clockedIn = this.drivers.filter((d) => d.current);
    const shuffled = clockedIn.map((d) => [rng.next(), d] as const).sort((a, b) => a[0] - b[0]);
    const workers = shuffled.slice(0, Math.min(inProgress, open, clockedIn.length)).map(([, d]) => d);
    for (const driver of workers) {
      const type = rng.weighted(entries(TYPE_WEIGHTS, (t) => driver.person.taskTypes.includes(t)));
      const earliest = Math.max(driver.busyUntil, driver.current!.start) + rng.between(0.5, 2) * MIN;
      const at = earliest + rng.next() * Math.max(0, now - 30_000 - earliest);
      const createdAt = at - this.minutes(type === 'swap' ? SWAP_DELAY : AUTO_DELAY);
      const trailer = this.takeTrailer(type === 'swap', createdAt);
      trailer.open = true;
      const task = this.newTask(type, trailer, createdAt);
      const assignment = this.manner(type, driver, at);
      this.assigned(task, assignment);
      driver.busyUntil = Infinity;
      this.writeTask(task, {
        status: 'en_proceso',
        version: 2,
        updatedAt: assignment.at,
        statusSince: assignment.at,
        assignedTo: driver.person.id,
        assignedAt: assignment.at,
        noDriversAvailable: type === 'swap' ? null : false,
      });
    }

    const idle = clockedIn.filter((d) => !workers.includes(d));
    // Swap tasks wait until a driver claims one; the engine's types only while the drivers are busy.
    const waiting = Array.from({ length: open - workers.length }, () => {
      const type = rng.weighted(entries(POOL_TYPE_WEIGHTS, (t) => this.types.includes(t)));
      return { type, createdAt: now - rng.between(1, type === 'swap' ? 120 : 40) * MIN };
    }).sort((a, b) => a.createdAt - b.createdAt);
    for (const { type, createdAt } of waiting) {
      const trailer = this.takeTrailer(type === 'swap', createdAt);
      trailer.open = true;
      const task = this.newTask(type, trailer, createdAt);
      const able = idle.filter((d) => d.person.taskTypes.includes(type));
      const auto = type !== 'swap';
      // Some pool tasks were taken and given back: the card shows why.
      const by = able.length && rng.chance(0.15) ? rng.pick(able) : null;
      const at = by ? Math.max(createdAt, by.busyUntil, by.current!.start) + rng.between(0.3, 4) * MIN : 0;
      const back = at + rng.between(2, 12) * MIN;
      if (by && back < now - 30_000) {
        const reason = rng.weighted(entries(RETURN_WEIGHTS));
        this.assigned(task, this.manner(type, by, at));
        this.returned(task, by, back, reason);
        by.busyUntil = back;
        by.idleSince = Math.max(by.idleSince ?? 0, back);
        this.writeTask(task, {
          status: 'bolsa_trabajo',
          version: 3,
          updatedAt: back,
          statusSince: back,
          returnReason: reason,
          returnedBy: by.person.id,
          returnedAt: back,
          noDriversAvailable: auto ? false : null,
        });
      } else {
        this.writeTask(task, {
          status: 'bolsa_trabajo',
          version: 1,
          updatedAt: createdAt,
          noDriversAvailable: auto ? able.length === 0 : null,
        });
      }
    }
  }

  // ---- steps shared by history and now ----------------------------------------------------------

  private newTask(type: VehicleType, trailer: Trailer, createdAt: number) {
    const rng = this.rng;
    const { title, destination } = moveFor(rng, type, trailer.place, this.yard.plan, this.hasRoom);
    this.occupy(trailer.place, -1);
    this.occupy(destination, 1);
    const task = {
      id: this.ids.uuid(),
      type,
      title,
      description: description(rng),
      origin: trailer.place,
      destination,
      trailer,
      priority: rng.weighted(entries(PRIORITY_WEIGHTS)),
      creator: rng.weighted(this.staff),
      createdAt,
      named: { title, trailerId: trailer.plate, origin: trailer.place.name, destination: destination.name },
    };
    this.w.event(task.id, 'created', createdAt, { actorId: task.creator.id, to: 'bolsa_trabajo' });
    this.w.log(
      'task',
      task.creator,
      TASK_LOG.created.action,
      TASK_LOG.created.details(task.named),
      createdAt,
    );
    return task;
  }

  private writeTask(
    task: ReturnType<TaskSimulation['newTask']>,
    s: {
      status: TaskStatus;
      version: number;
      updatedAt: number;
      statusSince?: number;
      assignedTo?: string;
      creditedTo?: string;
      assignedAt?: number;
      completedAt?: number;
      returnReason?: string;
      returnedBy?: string | null;
      returnedAt?: number | null;
      noDriversAvailable?: boolean | null;
      deletedAt?: number;
    },
  ): void {
    this.w.task({
      id: task.id,
      title: task.title,
      description: task.description,
      origin: task.origin.name,
      destination: task.destination.name,
      originLocationId: this.places.get(task.origin.name)!.id,
      destinationLocationId: this.places.get(task.destination.name)!.id,
      trailerId: task.trailer.plate,
      trailerKey: plateKey(task.trailer.plate),
      priority: task.priority,
      status: s.status,
      vehicleType: task.type,
      assignedTo: s.assignedTo ?? null,
      createdBy: task.creator.id,
      creditedTo: s.creditedTo ?? null,
      createdAt: task.createdAt,
      updatedAt: s.updatedAt,
      assignedAt: s.assignedAt ?? null,
      completedAt: s.completedAt ?? null,
      statusSince: s.statusSince ?? s.updatedAt,
      returnReason: s.returnReason ?? null,
      returnedBy: s.returnedBy ?? null,
      returnedAt: s.returnedAt ?? null,
      noDriversAvailable: s.noDriversAvailable ?? null,
      version: s.version,
      deletedAt: s.deletedAt ?? null,
    });
  }

  /** The assignment event, its log row and (for the engine's and staff's) the driver's notification. */
  private assigned(task: ReturnType<TaskSimulation['newTask']>, a: Assignment): void {
    const driver = a.driver.person;
    const actor = a.by === 'engine' ? null : a.by === 'staff' ? a.staff! : driver;
    this.w.event(task.id, 'assigned', a.at, {
      actorId: actor?.id ?? null,
      driverId: driver.id,
      from: 'bolsa_trabajo',
      to: 'en_proceso',
    });
    const log =
      a.by === 'engine'
        ? TASK_LOG.autoAssigned
        : a.by === 'staff'
          ? TASK_LOG.assigned
          : TASK_LOG.selfAssigned;
    this.w.log('task', actor, log.action, log.details(task.named, driver.name), a.at);
    if (a.by !== 'self' && a.at >= this.opts.notifyFrom)
      this.w.notify(
        driver.id,
        'task_assigned',
        { title: TASK_NOTIFICATION.assigned.title, message: TASK_NOTIFICATION.assigned.message(task.named) },
        a.at,
        // The driver has seen it unless it arrived in the last few minutes.
        { taskId: task.id, isRead: a.at < this.opts.nowMs - 10 * MIN, playSound: true },
      );
  }

  private returned(
    task: ReturnType<TaskSimulation['newTask']>,
    driver: Driver,
    at: number,
    reason: ReturnReason = this.rng.weighted(entries(RETURN_WEIGHTS)),
  ): void {
    this.w.event(task.id, 'returned', at, {
      actorId: driver.person.id,
      driverId: driver.person.id,
      from: 'en_proceso',
      to: 'bolsa_trabajo',
      reason,
    });
    this.w.log(
      'task',
      driver.person,
      TASK_LOG.returned.action,
      TASK_LOG.returned.details(task.named, driver.person.name, reason),
      at,
    );
    driver.busyUntil = Math.max(driver.busyUntil, at);
    driver.idleSince = Math.max(driver.idleSince ?? 0, at);
  }

  /**
   * Who takes a task of `type` entering the pool at `t`: a driver on shift and free now (the engine's
   * choice: idle longest; for swap, whoever claims it), else the first to be free and on shift.
   */
  private findDriver(type: VehicleType, t: number, returnedBy: Driver | null): Found {
    let best: Driver | null = null;
    let bestIdle = Infinity;
    let first: Driver | null = null;
    let firstAt = Infinity;
    const shifts = this.shiftsByType[type];
    const last = t + LONGEST_WAIT_MS;
    for (let i = this.firstShiftEndingAfter(type, t); i < shifts.length; i++) {
      const { driver: d, start, end } = shifts[i];
      // By start: past `t` with a free driver found, or past the first free moment, nothing is better.
      if (start > (best ? t : Math.min(firstAt, last))) break;
      if (d === returnedBy) continue;
      if (start <= t && t < end && d.busyUntil <= t) {
        const idle = type === 'swap' ? this.rng.next() : Math.max(start, d.busyUntil);
        if (idle < bestIdle) [best, bestIdle] = [d, idle];
      } else {
        const at = Math.max(t, d.busyUntil, start);
        if (at < end && at < firstAt) [first, firstAt] = [d, at];
      }
    }
    if (best) return { driver: best, at: t, freeNow: true };
    return { driver: first, at: firstAt, freeNow: false };
  }

  /**
   * The assignment that follows a driver search of a task that entered the pool at `t`. A yard with
   * more work than its drivers can do gives the task to a driver on shift who is still busy.
   */
  private assignment(type: VehicleType, found: Found, t: number, returnedBy: Driver | null): Assignment {
    const rng = this.rng;
    const delay = this.minutes(type === 'swap' ? SWAP_DELAY : AUTO_DELAY);
    const lastStart = this.opts.nowMs - SETTLE_MS - 6 * MIN;
    let driver = found.driver;
    let at = found.freeNow ? t + delay : found.at + rng.between(0.2, 3) * MIN;
    if (!driver || at > lastStart) {
      const shifts = this.shiftsByType[type];
      const onShift: Driver[] = [];
      for (let i = this.firstShiftEndingAfter(type, t); i < shifts.length && shifts[i].start <= t; i++)
        if (shifts[i].end > t && shifts[i].driver !== returnedBy) onShift.push(shifts[i].driver);
      driver = onShift.length ? rng.pick(onShift) : rng.pick(this.byType[type]);
      at = Math.min(t + delay, Math.max(t, lastStart));
    }
    return this.manner(type, driver, at);
  }

  /** Swap tasks are claimed by the driver; the others go by the engine or, now and then, by staff. */
  private manner(type: VehicleType, driver: Driver, at: number): Assignment {
    if (type === 'swap') return { driver, at, by: 'self', staff: null };
    const staff = this.rng.chance(0.08) ? this.rng.weighted(this.staff) : null;
    return { driver, at, by: staff ? 'staff' : 'engine', staff };
  }

  /** Whether some driver having the type is on shift at `t`. */
  private staffed(type: VehicleType, t: number): boolean {
    const shifts = this.shiftsByType[type];
    for (let i = this.firstShiftEndingAfter(type, t); i < shifts.length && shifts[i].start <= t; i++)
      if (shifts[i].end > t) return true;
    return false;
  }

  /**
   * Index of the first shift of the type's drivers that may still run at `t`: shifts are sorted by
   * start and none lasts longer than LONGEST_SHIFT_MS, so the ones before it ended earlier.
   */
  private firstShiftEndingAfter(type: VehicleType, t: number): number {
    const shifts = this.shiftsByType[type];
    let lo = 0;
    let hi = shifts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (shifts[mid].start <= t - LONGEST_SHIFT_MS) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private minutes(table: readonly (readonly [readonly [number, number], number])[]): number {
    const [min, max] = this.rng.weighted(table);
    return this.rng.between(min, max) * MIN;
  }

  /** How much work the yard plans at `t`: by the drivers on shift and the Madrid weekday. */
  private creationWeight(t: number): number {
    const hour = Math.floor(t / HOUR);
    let offset = this.offsets.get(hour);
    if (offset === undefined) this.offsets.set(hour, (offset = madridOffsetMs(hour * HOUR)));
    const staffed = this.staffing[Math.floor((t - this.opts.historyStart) / BUCKET_MS)] + UNSTAFFED_WEIGHT;
    return staffed * WEEKDAY_WEIGHT[new Date(t + offset).getUTCDay()];
  }

  /** A trailer standing still at `t` (its latest move done, no open task); a new one if none is found. */
  private takeTrailer(swapBody: boolean, t: number): Trailer {
    const fleet = swapBody ? this.swapBodies : this.semis;
    for (let i = 0; i < 40; i++) {
      const trailer = this.rng.pick(fleet);
      if (!trailer.open && trailer.freeAt <= t) return trailer;
    }
    return this.addTrailer(swapBody);
  }

  private addTrailer(swapBody: boolean): Trailer {
    let p = plate(this.rng, swapBody);
    while (this.plates.has(p)) p = plate(this.rng, swapBody);
    this.plates.add(p);
    const place = initialPlace(this.rng, swapBody, this.yard.plan, this.hasRoom);
    this.occupy(place, 1);
    const trailer = { plate: p, swapBody, place, freeAt: 0, open: false };
    (swapBody ? this.swapBodies : this.semis).push(trailer);
    return trailer;
  }
}

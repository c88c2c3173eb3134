// The bench's sections and their sizes, and the engines it runs them on: shared by the bench process
// (index.ts, which never loads server code) and the engine processes (engine.ts) that run the sections.
export const SECTIONS = ['client', 'fanout', 'rest', 'pushpoll'] as const;
/** Run only when asked (`--cluster`): several nodes on PostgreSQL (issue 17). */
export const CLUSTER_SECTION = 'cluster' as const;
export type SectionName = (typeof SECTIONS)[number] | typeof CLUSTER_SECTION;

export const ENGINES = ['sqlite', 'postgres'] as const;
export type EngineName = (typeof ENGINES)[number];
export const ENGINE_LABELS: Record<EngineName, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

export type Mode = 'full' | 'smoke';

const SEED = 42;
export const SIZES = {
  full: {
    fanout: { clients: [500, 5000], updates: 500, threads: 2 },
    pushpoll: { staff: 300, drivers: 200, seconds: 60, changeEveryMs: 1000, threads: 2, seed: SEED },
    rest: {
      tasks: 100_000,
      open: 500,
      seconds: 3,
      writeSeconds: 5,
      writeConnections: 10,
      drivers: 20,
      seed: SEED,
    },
    client: { cards: 300, loads: 5, seed: SEED },
    cluster: { clients: 1000, updates: 200, threads: 2 },
  },
  smoke: {
    fanout: { clients: [10], updates: 5, threads: 1 },
    pushpoll: { staff: 3, drivers: 2, seconds: 2, changeEveryMs: 1000, threads: 1, seed: SEED },
    rest: {
      tasks: 1_000,
      open: 20,
      seconds: 1,
      writeSeconds: 1,
      writeConnections: 4,
      drivers: 2,
      seed: SEED,
    },
    client: { cards: 20, loads: 1, seed: SEED },
    cluster: { clients: 10, updates: 5, threads: 1 },
  },
};

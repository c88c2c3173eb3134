// vitest globalSetup of the `server-pg` project: one PostgreSQL cluster for the whole run, started from
// the npm registry (tests/helpers/postgres.ts) with its migrated template; every test takes a copy of
// the template (tests/helpers/postgres-db.ts). Stopped, and its files removed, when the run ends.
import type { TestProject } from 'vitest/node';
import { postgresUrl, stopPostgres } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    /** Why the cluster could not start (one line), if it could not: each of the project's files fails with it. */
    postgresStartError: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // A failing globalSetup would end the whole run (every project); only this project's tests need it.
  try {
    project.provide('postgresAdminUrl', await postgresUrl('postgres'));
  } catch (err) {
    project.provide('postgresStartError', (err as Error).message);
  }
  return stopPostgres;
}

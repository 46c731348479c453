// Four test tiers (style B9): unit next to the code, integration, e2e and fault against real
// servers. `vitest run` runs them in order; `--project <name>` picks one (npm run test:unit|int|e2e|fault).
import { defineConfig } from 'vitest/config';

// Real servers on a 2-core machine: one file at a time, and generous time for start-up.
// Under CI a failed server-tier test runs once more: one timing accident in 2,400 tests on a shared
// 2-core machine must not hold back everything else. It is not hidden: .ci/run lists every test
// that passed only on its second try (the JSON report keeps the first failure), and a test that
// fails twice fails the run. Locally (no CI variable) nothing is retried.
const serverTier = {
  environment: 'node',
  fileParallelism: false,
  testTimeout: 60_000,
  hookTimeout: 60_000,
  retry: process.env['CI'] ? 1 : 0,
} as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          // test/fault/support: the fault runs' history checker (pure code, fed bad histories).
          include: [
            '{runtime,actors,gateway,agents,infra,sdk}/**/*.test.ts',
            'test/fault/support/*.test.ts',
          ],
          exclude: ['**/node_modules/**', '**/dist/**', '**/*.int.test.ts', '**/*.e2e.test.ts'],
          // Modules are imported once per worker, not once per file: importing (zod schemas, the
          // protocol codecs, XState) was most of the tier's CPU time (user 70 s isolated, 15 s not).
          // Unit tests hold no global state between files; one that needs a fresh module graph
          // belongs in the integration tier.
          isolate: false,
          // CPU-bound property tests on a shared 2-core machine; the default 5 s timed one out.
          testTimeout: 15_000,
          // Tiers run one after another, so server tests never compete with unit tests for CPU.
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.int.test.ts'],
          ...serverTier,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.test.ts'],
          ...serverTier,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          // Fault injection (docs/OPERATIONS.md "Fault tests"): the cluster script, partitions
          // moving, and kill -9 of a hub node, kill -9 of a NATS server and a PostgreSQL restart
          // under load from 200 agents; pauses and network partitions (namespaces) with a checked
          // history. Minutes per file, so it runs last.
          name: 'fault',
          include: ['test/fault/**/*.fault.test.ts'],
          ...serverTier,
          testTimeout: 300_000,
          hookTimeout: 180_000,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});

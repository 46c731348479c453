// Three test tiers (style B9): unit next to the code, integration and e2e against real servers.
// `vitest run` runs all three in order; `--project <name>` picks one (npm run test:unit|int|e2e).
import { defineConfig } from 'vitest/config';

// Real servers on a 2-core machine: one file at a time, and generous time for start-up.
const serverTier = {
  environment: 'node',
  fileParallelism: false,
  testTimeout: 60_000,
  hookTimeout: 60_000,
} as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['{runtime,actors,gateway,agents,infra}/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**', '**/*.int.test.ts', '**/*.e2e.test.ts'],
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
    ],
  },
});

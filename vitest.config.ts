import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Three projects: `core` (Node, forks pool: better-sqlite3 and child processes),
// `renderer` (jsdom), `e2e` (Playwright driving Debian's Chromium against the
// production renderer build, bound to the real core in this process).
export default defineConfig({
  test: {
    // Every test's temporary files go in one folder of this run, removed at its end.
    globalSetup: ['tests/support/runTempDir.ts'],
    projects: [
      {
        test: {
          name: 'core',
          environment: 'node',
          pool: 'forks',
          include: ['tests/core/**/*.test.ts', 'tests/electron/**/*.test.ts', 'tests/release/**/*.test.ts', 'tests/lint/**/*.test.ts', 'src-main/**/*.test.ts', 'src-preload/**/*.test.ts'],
          // Generous: tests that start sshd, Slurm or kernels ran past 30 s on a machine
          // shared with other test runs (a timeout is a hang detector, not a speed target).
          testTimeout: 60_000,
        },
      },
      {
        // The adversarial suite (tests/security, one file per attack case); run alone
        // with `npm run test:security`.
        test: {
          name: 'security',
          environment: 'node',
          pool: 'forks',
          include: ['tests/security/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['tests/renderer/**/*.test.{ts,tsx}', 'src-renderer/**/*.test.{ts,tsx}'],
          // jsdom renders of whole pages took over the 5 s default on a loaded machine.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          pool: 'forks',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // expect.poll waits for eventual conditions (a run's model request, a scroll settling):
          // its 1 s default was once too short for a run's first request on a loaded CI machine.
          expect: { poll: { timeout: 10_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});

/**
 * Jest runs the ESM TypeScript sources through ts-jest (see design.md: NestJS 12 is ESM-only).
 * Two projects: fast unit specs next to the code, and e2e suites under test/ that talk to a real
 * PostgreSQL over real HTTP and WebSocket.
 */
const common = {
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151002] } }],
  },
  testEnvironment: 'node',
};

export default {
  // Every suite re-imports the app into a fresh module registry, and not all of it is freed: in one
  // process the whole run grew past Node's heap limit. A worker (not the runner's own process, as
  // with one worker otherwise) is replaced after a suite that leaves it above this.
  workerIdleMemoryLimit: '1GB',
  projects: [
    // 30 s, not Jest's 5 s: the suites share one worker with the e2e suites' servers on a small
    // machine, and a spec with real timers or a worker thread must not fail for being slowed.
    { ...common, displayName: 'unit', roots: ['<rootDir>/src'], testMatch: ['**/*.spec.ts'], testTimeout: 30_000 },
    {
      ...common,
      displayName: 'e2e',
      setupFilesAfterEnv: ['<rootDir>/test/setup/e2e-timeout.ts', '<rootDir>/test/setup/http-keep-alive.ts'],
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.mjs',
      globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
    },
  ],
};

/** Unit tests beside the code; e2e tests in test/ against real PostgreSQL and Redis. */
const moduleNameMapper = {
  '^@app/(core|plans|redis|database|billing|accounts|gateway|site-audit|logging|providers|crawler|mcp-tools|oauth|webhooks)$':
    '<rootDir>/libs/$1/src',
  '^@app/(core|plans|redis|database|billing|accounts|gateway|site-audit|logging|providers|crawler|mcp-tools|oauth|webhooks)/(.*)$':
    '<rootDir>/libs/$1/src/$2',
  '^@seo-api/client$': '<rootDir>/clients/typescript/src',
};
const transform = { '^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }] };

module.exports = {
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      rootDir: __dirname,
      testEnvironment: 'node',
      moduleFileExtensions: ['ts', 'js', 'json'],
      testMatch: ['<rootDir>/apps/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts'],
      transform,
      moduleNameMapper,
    },
    {
      displayName: 'e2e',
      rootDir: __dirname,
      testEnvironment: 'node',
      moduleFileExtensions: ['ts', 'js', 'json'],
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform,
      moduleNameMapper,
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
    },
    {
      // npm run test:topology: starts its own PostgreSQL pair, Redis group, APIs and workers.
      displayName: 'topology',
      rootDir: __dirname,
      testEnvironment: 'node',
      moduleFileExtensions: ['ts', 'js', 'json'],
      testMatch: ['<rootDir>/test/topology/**/*.topology-spec.ts'],
      transform,
      moduleNameMapper,
    },
  ],
};

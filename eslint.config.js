// ESLint flat config: type-aware typescript-eslint rules (style B10) and the dependency direction
// between top-level folders (style B1), one no-restricted-imports block per folder.
import { existsSync, readdirSync } from 'node:fs';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

const TESTS = ['**/*.test.ts'];

/** A relative import that climbs into `target` (a regex fragment naming a path from the root). */
function into(target, message) {
  return { regex: `^(\\.\\./)+(${target})(/|$)`, message };
}

// Cross-folder imports go through a package's index.js (B1, B2: no deep imports).
const deepRuntime = {
  regex: '^(\\.\\./)+runtime/[^/]+/(?!index\\.js$)',
  message: 'Import runtime packages through their index.js (runtime/<pkg>/index.js).',
};
const deepActors = {
  regex: '^(\\.\\./)+actors/(?!index\\.js$)',
  message: 'Outside actors/, import only actors/index.js.',
};
const deepDb = {
  regex: '^(\\.\\./)+infra/db/(?!index\\.js$)',
  message: 'Import the database package through infra/db/index.js.',
};
const bin = into('infra/bin', 'Nothing imports infra/bin: it holds the composition roots.');
const tests = into('test', 'Only tests import test/ (support, fixtures).');

/**
 * The import rule for one folder: `patterns` for its source files; its *.test.ts files may also
 * import test/ support code. Later blocks replace the rule's options, so each file matches one.
 */
function folderRule(folder, patterns) {
  const rule = (list) => ({ 'no-restricted-imports': ['error', { patterns: list }] });
  return [
    { files: [`${folder}/**/*.ts`], ignores: TESTS, rules: rule([...patterns, tests]) },
    { files: [`${folder}/**/*.test.ts`], rules: rule(patterns) },
  ];
}

// Agents never import each other (they talk over the bus); kit/ is the shared library.
const agentNames = existsSync('agents')
  ? readdirSync('agents', { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'kit')
      .map((d) => d.name)
  : [];
const agentCommon = [
  into('gateway', 'Agents never import the gateway.'),
  bin,
  deepRuntime,
  deepActors,
  deepDb,
];
const agentRules = [
  ...folderRule('agents', agentCommon),
  ...agentNames.flatMap((name) => {
    const others = agentNames.filter((n) => n !== name);
    if (others.length === 0) return [];
    const ban = into(others.join('|'), 'An agent never imports another agent; use the bus.');
    return folderRule(`agents/${name}`, [...agentCommon, ban]);
  }),
];

export default defineConfig([
  globalIgnores(['dist/', 'sdk/dist/', 'node_modules/', 'machines/', 'coverage/']),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Only runtime/config reads the environment; take a Config argument instead.',
        },
      ],
    },
  },
  {
    // The config module, composition roots and test harnesses (the test runner's config too) may
    // read the environment.
    files: ['runtime/config/**', 'infra/bin/**', 'infra/cluster/**', 'test/**', 'vitest.config.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },

  // B1: runtime ← infra/db ← actors ← {gateway, agents}; bin → all.
  ...folderRule('runtime', [
    into('actors|gateway|agents|infra', 'runtime imports npm packages only, no other folder.'),
    {
      regex: '^(\\.\\./)+sdk/(?!contract/index\\.js$)',
      message: 'Of the SDK, the hub shares only its protocol contract (sdk/contract/index.js).',
    },
  ]),
  // The domain: machines and the services that run them. Never the edge (gateway) or the agents.
  ...folderRule('actors', [
    into('gateway|agents', 'actors (the domain) never import the gateway or the agents.'),
    into('infra/(?!db/)[^/]+', 'Of infra, actors import only infra/db.'),
    bin,
    deepRuntime,
    deepDb,
  ]),
  {
    // The machines stay pure: no I/O, so they can be stepped, printed and tested anywhere.
    files: ['actors/**/*.machine.ts', 'actors/**/*.events.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            into('infra|gateway|agents', 'A machine is pure: runtime types and xstate only.'),
            {
              regex: '^(\\.\\./)+runtime/(?!protocol/|errors/)',
              message: 'A machine is pure: runtime/protocol and runtime/errors only.',
            },
          ],
        },
      ],
    },
  },
  ...folderRule('gateway', [
    into('agents', 'The gateway never imports agents; it reaches them over the bus.'),
    into('infra/(?!db/)[^/]+', 'Of infra, the gateway imports only infra/db.'),
    bin,
    deepRuntime,
    deepActors,
    deepDb,
  ]),
  ...folderRule('infra', [
    into('actors|gateway|agents', 'infra imports only runtime.'),
    into('bin', 'Nothing imports infra/bin: it holds the composition roots.'),
    deepRuntime,
  ]),
  // The SDK ships to agent builders: npm packages and itself only, never the hub's internals.
  ...folderRule('sdk', [
    into('runtime|actors|gateway|agents|infra', 'The SDK imports only npm packages and sdk/.'),
  ]),
  {
    // The SDK reads no environment either: callers pass URLs and keys.
    files: ['examples/**/*.ts'],
    rules: { 'no-restricted-properties': 'off', 'no-console': 'off' },
  },
  ...folderRule('examples', [
    into(
      'runtime|actors|gateway|agents|infra|sdk',
      'Examples import the SDK by its package name, @burrow/sdk.'
    ),
  ]),
  // The dashboard is a browser app: it reaches the hub only through the public HTTP API.
  {
    files: ['dashboard/**/*.ts', 'dashboard/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            into(
              'runtime|actors|gateway|agents|infra|sdk|test',
              'The dashboard talks to the hub over HTTP only.'
            ),
          ],
        },
      ],
    },
  },
  // Composition roots may import anything.
  { files: ['infra/bin/**/*.ts'], rules: { 'no-restricted-imports': 'off' } },
  ...agentRules,

  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { URL: 'readonly', process: 'readonly', console: 'readonly' } },
  },
  {
    // Tests print the figures their assertions rest on, and vitest matchers (expect.any) are `any`.
    files: ['test/**/*.ts', '**/*.test.ts'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
]);

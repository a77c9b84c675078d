import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** One lint config for the whole repository; `npm test` runs it. */
export default tseslint.config(
  { ignores: ['dist/', 'storybook-static/', 'coverage/', 'custom-elements.json', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-undef': 'off',
    },
  },
  ...roomRules(),
  {
    // The browser tests' server (web-test-runner.config.mjs) loads these outside vitest, where
    // importing it throws and stops every browser test.
    name: 'tests/helpers-outside-vitest',
    files: ['test/helpers/**/*.ts', 'test/elements/support/**/*.ts'],
    ignores: ['test/helpers/passes.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vitest', message: 'Also loaded outside vitest (by the browser tests\' server): put what needs vitest in test/helpers/passes.ts.' }] }],
    },
  },
);

/**
 * The arrows between rooms that must never exist (docs/decisions/enforced-rooms.md). Each room
 * names the rooms it may not import, type-only imports and re-exports included; the folder names
 * are unique under `src/`, so a pattern on the import path finds the room whatever the depth.
 */
function roomRules() {
  const room = (name, message) => ({ group: name === 'http' ? ['**/http.js'] : [`**/${name}`, `**/${name}/**`], message });
  const serverOnly = 'run in browsers and must not pull in server code';
  const serviceNever = { bff: 'The service knows no BFF: share through src/server-kit/.', elements: 'The service renders no elements.', frameworks: 'The service renders no elements.' };
  const rooms = {
    service: { files: ['src/service/**/*.ts'], never: serviceNever },
    // The data layer and the invoicing domain know no HTTP: they throw the errors of `domain-errors.ts`.
    domain: { files: ['src/service/db.ts', 'src/service/store.ts', 'src/service/invoicing/**/*.ts'], never: { ...serviceNever, http: 'The domain knows no HTTP: throw the errors of src/service/domain-errors.ts.' } },
    elements: {
      files: ['src/elements/**/*.ts', 'src/frameworks/**/*.ts'],
      never: {
        service: `The elements ${serverOnly}.`,
        bff: `The elements ${serverOnly}; the wire shapes live in src/contract/.`,
        'server-kit': `The elements ${serverOnly}.`,
        api: 'The elements carry no typed client: they call the BFF through shared/bff-client.ts, typed by src/contract/.',
      },
    },
    // The back office runs in browsers: it calls the service's API through its session, never a server module.
    admin: {
      files: ['src/admin/**/*.ts'],
      never: {
        service: `The back office ${serverOnly}.`,
        bff: `The back office ${serverOnly}.`,
        'server-kit': `The back office ${serverOnly}.`,
        api: 'The back office carries no typed client: it calls /admin/api through src/admin/api.ts.',
      },
    },
    api: { files: ['src/api/**/*.ts'], never: { service: 'The client knows no server.', bff: 'The client knows no server.', 'server-kit': 'The client knows no server.', elements: 'The client knows no elements.', frameworks: 'The client knows no elements.' } },
    bff: { files: ['src/bff/**/*.ts'], never: { service: "The BFF knows no service code: it calls the service over HTTP through the client; share through src/server-kit/." } },
    'server-kit': { files: ['src/server-kit/**/*.ts'], never: { service: 'The shared server kit imports neither server.', bff: 'The shared server kit imports neither server.', elements: 'The shared server kit renders nothing.' } },
    // The widget script runs in the shop's page, alone: it imports no room of ours.
    widget: {
      files: ['src/widget/**/*.ts'],
      never: Object.fromEntries(['api', 'service', 'bff', 'server-kit', 'elements', 'frameworks', 'kernel', 'admin'].map((other) => [other, `The widget script ${serverOnly}, and carries nothing but itself into the shop's page.`])),
    },
    einvoice: {
      files: ['src/einvoice/**/*.ts'],
      never: Object.fromEntries(['api', 'service', 'bff', 'server-kit', 'elements', 'frameworks', 'widget', 'admin'].map((other) => [other, 'The e-invoice mapping imports only the kernel and the wire contract.'])),
    },
    kernel: {
      files: ['src/kernel/**/*.ts'],
      never: Object.fromEntries(['api', 'service', 'bff', 'server-kit', 'elements', 'frameworks'].map((other) => [other, 'The kernel imports only the wire contract (src/contract/).'])),
    },
  };
  // The contract imports nothing of ours and no package: only its own modules, beside it.
  const contract = {
    name: 'rooms/contract',
    files: ['src/contract/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!\\./)', message: 'The contract is plain TypeScript: it imports nothing but its own modules.' }] }] },
  };
  return [...Object.entries(rooms).map(([name, { files, never }]) => ({
    name: `rooms/${name}`,
    files,
    rules: {
      'no-restricted-imports': ['error', { patterns: Object.entries(never).map(([other, message]) => room(other, message)) }],
    },
  })), contract];
}

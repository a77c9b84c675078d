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
);

import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'wasm/target/', 'src/wasm/pkg/', 'dashboard/dist/', 'artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        Response: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-restricted-syntax': [
        'error',
        {
          // `fn?.(x, (pos += n))` skips the `+=` when fn is absent: a parser once read a body as
          // requests that way. Do the side effect first, then call.
          selector:
            'ChainExpression CallExpression > .arguments :matches(AssignmentExpression, UpdateExpression), ChainExpression CallExpression > :matches(AssignmentExpression, UpdateExpression).arguments',
          message: 'No side effects in the arguments of an optional call: they are skipped when the callee is absent.',
        },
      ],
    },
  },
  // The browser bundle's CommonJS shims of Node modules (dashboard/src/run/shims).
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', exports: 'writable' } } },
);

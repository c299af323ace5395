import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// The library's messages get `servicepay: ` in one place (src/webhook/prefixed.ts: the error
// classes' constructors and prefixed()), never typed at the start of a message (issue 48).
const PREFIX_TYPED = [
  'Literal[value=/^servicepay: /]',
  'TemplateElement[value.raw=/^servicepay: /]',
].map((selector) => ({
  selector,
  message: 'the prefix is added by the error class or prefixed() (src/webhook/prefixed.ts)',
}));

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'storybook-static/', 'artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: [
      'src/react/**/*.{ts,tsx}',
      'src/hosted/**/*.{ts,tsx}',
      'test/react/**/*.{ts,tsx}',
      'stories/**/*.{ts,tsx}',
    ],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Import direction (docs/architecture.md): core imports nothing of the other layers.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react-dom', 'react/*', 'react-dom/*'],
              message: 'core is framework-free',
            },
            { group: ['node:*'], message: 'core runs in browsers: no Node built-ins' },
            {
              group: ['../react/*', '../vanilla/*', '../webhook/*', '../sandbox/*'],
              message: 'core imports no other layer',
            },
          ],
        },
      ],
    },
  },
  {
    // webhook imports from core only types and three dependency-free modules (docs/architecture.md),
    // and nothing of the browser layers or the sandbox.
    files: ['src/webhook/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // ...and three dependency-free modules: the shared addresses, describeValue and the protocol.
              // From any depth of src/webhook (its folders: verification/, receiving/, ...).
              regex: '^(\\.\\./)+core(/(?!(service-addresses|describe-value|protocol)$).*)?$',
              allowTypeImports: true,
              message:
                'webhook imports from core only types and protocol, service-addresses, describe-value',
            },
            {
              regex: '^(react|react-dom|(\\.\\./)+(react|vanilla|hosted|sandbox)(/.*)?)$',
              message: 'webhook is server code: no browser layers, no sandbox',
            },
          ],
        },
      ],
      // A value now or a promise of it crosses in one way, src/webhook/maybe.ts (issue 48).
      'no-restricted-syntax': [
        'error',
        {
          selector: "BinaryExpression[operator='instanceof'][right.name='Promise']",
          message: 'use isThenable or whenReady (src/webhook/maybe.ts)',
        },
        {
          selector: "BinaryExpression[operator='in'][left.value='then']",
          message: 'use isThenable or whenReady (src/webhook/maybe.ts)',
        },
        ...PREFIX_TYPED,
      ],
    },
  },
  {
    // Nothing in the library imports the sandbox; the sandbox uses core's public index only.
    files: ['src/react/**/*.{ts,tsx}', 'src/vanilla/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../sandbox/*', '../webhook/*'],
              message: 'browser code never imports server code',
            },
            {
              // ...or its list of public types, which every entry re-exports, or a screen of a
              // shipped catalogue (the plain page's scripts carry them by language:
              // src/vanilla/locales.ts).
              // ...or core's internal module (what no entry exports: SessionWiring, said, warn).
              group: [
                '../core/*',
                '!../core/index',
                '!../core/public-types',
                '!../core/locales',
                '!../core/internal',
              ],
              message:
                "import core's public index (or a shipped catalogue's screen, or core/internal)",
            },
          ],
        },
      ],
    },
  },
  {
    // servicepay/hosted wraps the service's own script: core's public index, and the
    // dependency-free modules of the id rule (protocol, the ids, the payment key) and of the
    // messages' prefix (protocol's `said`, console's `reportThrown`), which keep its entry
    // within 3.5 kB; never the reimplemented component (react, vanilla).
    files: ['src/hosted/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../sandbox/*', '../webhook/*', '../react/*', '../vanilla/*'],
              message: "hosted wraps the service's script: no other layer but core",
            },
            {
              group: [
                '../core/*',
                '!../core/index',
                '!../core/public-types',
                '!../core/protocol',
                '!../core/console',
                '!../core/merchant-payment-id',
                '!../core/payment-key',
              ],
              message: "import core's public index (or its dependency-free id modules)",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/sandbox/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../core/*', '!../core/index'], message: "import core's public index" },
            {
              group: ['react', 'react-dom', '../react/*', '../vanilla/*'],
              message: 'the sandbox is server code',
            },
            {
              // A folder never reaches up a floor into the sandbox's root, which holds only the
              // entry (docs/architecture.md, "The sandbox, folder by folder").
              regex: '^\\.\\./[^/]+$',
              message: 'import from a folder beside this one, never from the sandbox root',
            },
          ],
        },
      ],
      // The service's addresses have one home, src/core/service-addresses.ts: a page that spells
      // the key's path would go on linking the old one if it ever moved (issue 48).
      'no-restricted-syntax': [
        'error',
        ...[
          'Literal[value=/well-known\\/signature/]',
          'TemplateElement[value.raw=/well-known\\/signature/]',
        ].map((selector) => ({ selector, message: 'use PUBLIC_KEY_PATH (servicepay/core)' })),
        ...PREFIX_TYPED,
      ],
    },
  },
);

// Lint rules that hold the layers apart and keep functions short. Run by `npm test` (npm run lint).
// A rule that does not fit a file gets an override below with a one-line reason.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const jsGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'performance',
    'fetch',
    'require',
    'module',
    '__dirname',
    'TextEncoder',
    'TextDecoder',
    'AbortController',
  ].map((g) => [g, 'readonly']),
);

/** Static imports a layer may not make, as regexes over the import string. dynamic import() stays allowed. */
const forbid = (files, regex, message) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [{ regex, message }] }] },
});
/** Why a test may not change process.env: vitest.config.ts runs a worker's files in one process. */
const SHARED_ENV = 'test files share their worker process: pass an env to the command instead';
/** `^(\.\./){n}`: a relative import that leaves a folder n levels up. */
const up = (n) => `^(\\.\\./){${n}}`;

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/results/**', 'completions/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true, IIFEs: true }],
      // control characters in regexes are how terminal escapes are stripped
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: jsGlobals },
  },
  {
    files: ['bin/**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' }, // bin is CommonJS so --version answers before the ES loader starts
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      'max-lines-per-function': 'off', // a describe() block holds its cases
      '@typescript-eslint/no-explicit-any': 'off', // tests walk parsed JSON payloads
      // The test files of a worker share one process and its modules (vitest.config.ts, isolate:
      // false): nothing a file does may outlive it there. Each file starts its own sandbox and
      // servers and hands its commands their environment; these would reach the next file instead.
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock', 'spyOn', 'useFakeTimers', 'stubEnv', 'stubGlobal'].map((property) => ({
          object: 'vi',
          property,
          message: 'test files share their worker process (isolate: false): give the code what it needs instead',
        })),
        { object: 'process', property: 'chdir', message: 'test files share their worker process: pass a cwd' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "AssignmentExpression > MemberExpression.left[object.object.name='process'][object.property.name='env']",
          message: SHARED_ENV,
        },
        {
          selector:
            "UnaryExpression[operator='delete'] > MemberExpression[object.object.name='process'][object.property.name='env']",
          message: SHARED_ENV,
        },
      ],
    },
  },
  // The layers (architecture.md): the contract imports nothing else; the sandbox only the contract;
  // api/ nothing above it; flows reach the service through api/; the CLI loads the sandbox by import().
  forbid(['src/contract/*.ts'], up(1), 'src/contract imports only itself'),
  forbid(['src/contract/*/*.ts'], up(2), 'src/contract imports only itself'),
  forbid(['src/sandbox/*.ts'], `${up(1)}(?!contract/)`, 'the sandbox imports only src/contract/ and its own files'),
  forbid(['src/sandbox/*/*.ts'], `${up(2)}(?!contract/)`, 'the sandbox imports only src/contract/ and its own files'),
  forbid(['src/sandbox/*/*/*.ts'], `${up(3)}(?!contract/)`, 'the sandbox imports only src/contract/ and its own files'),
  forbid(
    ['src/api/**/*.ts'],
    '(^|/)(commands|flows|push|output|prompts|sandbox)/',
    'api/ is the service; nothing above it',
  ),
  forbid(
    ['src/flows/**/*.ts', 'src/push/**/*.ts'],
    '(^|/)(commands|sandbox)/|(^|/)http/client\\.js$',
    'flows call the service through api/; the sandbox loads only by import()',
  ),
  forbid(
    [
      'src/*.ts',
      'src/commands/**/*.ts',
      'src/output/**/*.ts',
      'src/config/**/*.ts',
      'src/http/**/*.ts',
      'src/auth/**/*.ts',
      'src/prompts/**/*.ts',
    ],
    '^(\\./|(\\.\\./)+)sandbox/',
    'the CLI loads the sandbox only through import() in the commands that run it',
  ),
);

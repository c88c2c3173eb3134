import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/** A raw SQL text that writes tasks or task_events (esquery regex: no `/` inside). */
const WRITES_TASKS = String.raw`/(UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+"?(tasks|task_events)\b/i`;

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'migrations/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../shared/*', '../../shared/*'], message: 'Importa desde @shared/...' }] },
      ],
    },
  },
  {
    // A promise nobody awaits on the server turns a refusal into an unhandled rejection instead of its
    // 4xx, or answers before the change is kept (and the services are becoming async: issue 16).
    // The tests of the server drive the same async services: an assertion on a promise nobody awaited
    // passes whatever the outcome.
    files: ['server/**/*.ts', 'scripts/**/*.ts', 'tests/{api,socket,unit,process,timing,helpers}/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // A promise where a boolean is tested is always true (express handlers may return promises).
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    // Issue 26, one change log: the server's code records its changes in the transaction's ChangeSet, the
    // processors push them (changes/processors/ the one importer of the emitter besides realtime/ itself
    // and the bootstrap's type import): docs/TASKS.md › The change log.
    files: ['server/**/*.ts'],
    ignores: ['server/changes/processors/**', 'server/realtime/**', 'server/server.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../shared/*', '../../shared/*'], message: 'Importa desde @shared/...' },
            {
              group: ['**/realtime/emit'],
              message: 'Registra el cambio en el ChangeSet: lo emite changes/processors/sockets.ts',
            },
          ],
        },
      ],
    },
  },
  {
    // …and only tasks/apply.ts writes tasks and their history (version + 1, task_events): docs/TASKS.md.
    // Drizzle's insert/update/delete, insertRows() / appendRows() and raw SQL texts alike.
    files: ['server/**/*.ts'],
    ignores: ['server/tasks/apply.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(insert|update|delete)$/][arguments.0.name=/^(tasks|taskEvents)$/]',
          message: 'Solo server/tasks/apply.ts escribe tareas y su historial',
        },
        {
          selector:
            'CallExpression[callee.name=/^(insertRows|appendRows)$/][arguments.0.name=/^(tasks|taskEvents)$/]',
          message: 'Solo server/tasks/apply.ts escribe tareas y su historial',
        },
        {
          selector: `:matches(TemplateElement[value.raw=${WRITES_TASKS}], Literal[value=${WRITES_TASKS}])`,
          message: 'Solo server/tasks/apply.ts escribe tareas y su historial',
        },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', 'window', 'document', 'process', 'Buffer'],
    },
  },
);

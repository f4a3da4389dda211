// ESLint flat config: typescript-eslint recommended rules, Prettier owns formatting.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'packages/*/dist/**', 'test-output/**'],
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'CallExpression[callee.property.name="only"]', message: 'no focused tests' },
      ],
    },
  },
  {
    // The domain is pure: no framework, no storage, no HTTP (also checked by dependency-cruiser).
    files: ['src/ledger/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@nestjs/*',
                'pg',
                '@electric-sql/*',
                '@eventstore/*',
                'express',
                'node:http',
                'node:fs',
                'node:net',
              ],
              message: 'src/ledger is pure: no framework, storage or I/O',
            },
          ],
        },
      ],
    },
  },
  {
    // The worker SDK is a package of its own: nothing from the server, no runtime dependencies.
    files: ['packages/client/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/**', '!./**', '!../**/client/src/**'],
              message: 'packages/client imports nothing from src/',
            },
            {
              // The protocol holds the key rules and wire types; undici is its Node transport
              // (#default-sender), docs/decisions.md; structured-headers parses the Idempotency-Key
              // header (docs/protect-your-api.md); lru-cache bounds the replay cache
              regex:
                '^(?!node:|\\.|@operation-ledger/protocol$|undici$|structured-headers$|lru-cache$|#default-sender$)',
              message:
                'packages/client has four runtime dependencies, the protocol, undici, structured-headers and lru-cache: otherwise Node built-ins only',
            },
          ],
        },
      ],
    },
  },
  {
    // The protocol runs in Node and in browsers alike (also checked by dependency-cruiser).
    files: ['packages/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\.)',
              message: 'packages/protocol imports only itself: no node: module, no npm package',
            },
          ],
        },
      ],
    },
  },
  {
    // The HTTP adapters (subpath exports) also import their framework: an optional peer dependency.
    files: ['packages/client/src/idempotent-http/{nestjs,fastify,express}.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!node:|\\.|@nestjs/common$|@nestjs/core$|rxjs$|fastify$|express$)',
              message: 'an adapter imports only the SDK and its framework',
            },
          ],
        },
      ],
    },
  },
  {
    // Each broker adapter (a subpath export) may import its own optional peer dependency.
    files: ['packages/client/src/consumers/{bullmq,amqp,jetstream}.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!node:|\\.|bullmq$|amqplib$|nats$)',
              message: 'a broker adapter imports the SDK, Node built-ins and its broker library only',
            },
          ],
        },
      ],
    },
  },
  {
    // The server may use the SDK only through its package name, never by path.
    files: ['src/**/*.ts'],
    ignores: ['src/ledger/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/packages/**'], message: 'import @operation-ledger/client by name' }] },
      ],
    },
  },
  {
    // Refusals are values in the application layer of every room (handlers, services, the
    // locator, jobs, stores): a handler returns `{ kind: 'refused' | 'not-found' | … }` and the
    // HTTP edge answers it (docs/architecture.md "Transport — HTTP"). The edge is named by file:
    // controllers, pipes, guards, interceptors, filters, middleware, DTOs, each room's
    // *-http-answer.ts and http/ folder, and src/common's request-body parsers and problem
    // plumbing. Only the edge builds or throws a ProblemException.
    files: ['src/**/*.ts'],
    ignores: [
      'src/ledger/**',
      'src/**/*.{controller,pipe,guard,interceptor,filter,middleware,decorator,dto}.ts',
      'src/**/*-http-answer.ts',
      'src/**/http/**',
      'src/**/openapi/**',
      'src/operations/problem-answer.ts',
      'src/operations/request-context.ts',
      // the problem factories and checks the guards, middleware and controllers share
      'src/auth/{auth-problems,authenticate-request,assert-tenant-access}.ts',
      // src/common: the problem document and its exception, the request-body parsers and the
      // answers of errors the framework or the socket raises before a route runs
      'src/common/{problem,problem.exception,error-problem,validation}.ts',
      'src/common/{json-body,utf8-body,concurrent-bodies,json-content-headers}.ts',
      'src/common/{client-errors,framework-errors,request-deadline,storable-query}.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'CallExpression[callee.property.name="only"]', message: 'no focused tests' },
        {
          selector: 'ThrowStatement > NewExpression[callee.name="ProblemException"]',
          message: 'return the refusal as a value; the HTTP edge (controller, *-http-answer.ts) answers it',
        },
        {
          selector: 'ThrowStatement > CallExpression[callee.name=/(Problem|NotFound|Refusal)$/]',
          message: 'return the refusal as a value; the HTTP edge (controller, *-http-answer.ts) answers it',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/packages/**'], message: 'import @operation-ledger/client by name' },
            {
              group: ['**/problem.exception.js', '**/auth-problems.js', '**/*-http-answer.js'],
              message: 'the application layer returns refusals as values; only the HTTP edge builds problems',
            },
            {
              group: ['**/auth/index.js', './index.js'],
              importNames: [
                'forbidden',
                'forbiddenTenant',
                'rateLimited',
                'unauthenticated',
                'assertTenantAccess',
              ],
              message: 'the application layer returns refusals as values; only the HTTP edge builds problems',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'demo/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);

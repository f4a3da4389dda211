// Options the server bundle (scripts/bundle-server.mjs) and the tests' bundle of the same
// dependencies (test/support/dependency-bundle.js) share. Why each package stays outside: the
// comment in bundle-server.mjs and docs/decisions.md "The server starts from a bundle".

/** Packages left to node_modules. */
export const SERVER_BUNDLE_EXTERNALS = [
  '@electric-sql/pglite',
  '@eventstore/db-client',
  '@grpc/grpc-js',
  '@opentelemetry/*',
  'pg',
  'pg-native',
  'pino',
  'pino-pretty',
  'swagger-ui-dist',
  '@nestjs/microservices',
  '@nestjs/microservices/*',
  '@nestjs/websockets',
  '@nestjs/websockets/*',
  '@fastify/multipart',
  '@fastify/view',
  'class-transformer',
  'class-transformer/*',
  'class-validator',
  'reflect-metadata',
];

/**
 * Every output file first loads reflect-metadata (its global Reflect.metadata API must exist before
 * any decorator runs; a shared chunk is evaluated before the entry's own imports), and CommonJS
 * packages inside an ES-module bundle call require(): give them one.
 */
export const SERVER_BUNDLE_BANNER = {
  js: [
    "import 'reflect-metadata';",
    "import { createRequire as __ledgerRequire } from 'node:module';",
    'const require = __ledgerRequire(import.meta.url);',
  ].join(' '),
};

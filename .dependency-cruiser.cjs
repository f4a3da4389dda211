/**
 * Architecture rules checked in CI (`npm run lint`). The domain (src/ledger) is pure TypeScript:
 * it may import only itself, Node's crypto/buffer and the small pure libraries it is built on.
 */
module.exports = {
  forbidden: [
    {
      name: 'ledger-is-pure',
      comment: 'src/ledger imports nothing from Nest, pg, PGlite, the event store or HTTP code',
      severity: 'error',
      from: { path: '^src/ledger' },
      to: {
        pathNot: ['^src/ledger', '^node_modules/(canonicalize|uuid)/', '^(node:)?(crypto|buffer)$'],
      },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-test-code-in-src',
      severity: 'error',
      from: { path: '^src' },
      to: { path: '^(test|bench|demo)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};

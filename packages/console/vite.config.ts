import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

/**
 * The console is served by the ledger at /console (src/console), from this build's `dist`.
 * `npm run dev` proxies /v1 to a ledger on LEDGER_URL (default http://127.0.0.1:3000).
 * The protocol package is bundled from its sources, so the console never ships a stale build of it.
 */
export default defineConfig({
  base: '/console/',
  plugins: [preact()],
  resolve: {
    alias: {
      '@operation-ledger/protocol': fileURLToPath(new URL('../protocol/src/index.ts', import.meta.url)),
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false },
  server: { proxy: { '/v1': process.env.LEDGER_URL ?? 'http://127.0.0.1:3000' } },
});

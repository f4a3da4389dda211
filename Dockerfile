# The ledger as a container image (used by docker-compose.yml; docs/eventstoredb.md).
# test/release/dockerfile-replay.e2e.spec.ts replays this file's stages without a container engine.
# Build stage: install from the lockfile (every workspace's manifest is needed for that), then
# build everything as `npm ci`'s `prepare` does — the server, the SDK, the CLI and the console —
# and drop dev dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/protocol/package.json ./packages/protocol/
COPY packages/client/package.json ./packages/client/
COPY packages/cli/package.json ./packages/cli/
COPY packages/console/package.json ./packages/console/
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts ./scripts
COPY packages ./packages
RUN npm run build && npm prune --omit=dev --ignore-scripts

# Runtime stage: compiled JavaScript (the server bundle, dist/server, and the modules it leaves out),
# the protocol package's build (the unbundled admin commands, dist/src/admin-cli, import it), the
# console's build (served at /console), the fresh cluster new data directories start from, and
# production dependencies only, as an unprivileged user. Data (PGlite's cluster, the first admin
# key) lives in the /data volume.
# Configuration comes from the environment (docs/configuration.md); HOST=0.0.0.0 to be reachable.
FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 LEDGER_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/packages/console/dist ./packages/console/dist
COPY --from=build /app/packages/protocol/package.json ./packages/protocol/package.json
COPY --from=build /app/packages/protocol/dist ./packages/protocol/dist
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000
# Ready = the store answers (docs/production.md "Health probes"); the slim image has no curl.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The `start` script's command: the tracing preload does nothing unless tracing is turned on
# (docs/observability.md).
CMD ["node", "--import", "./dist/src/observability/tracing/register-tracing.js", "dist/server/main.js"]

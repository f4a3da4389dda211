# The ledger as a container image (used by docker-compose.yml; docs/eventstoredb.md).
# Build stage: install from the lockfile, compile TypeScript, then drop dev dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts ./scripts
RUN node node_modules/typescript7/bin/tsc -p tsconfig.build.json && npm run -s build:bundle && npm run -s build:initdb-template && npm prune --omit=dev --ignore-scripts

# Runtime stage: compiled JavaScript (the server bundle, dist/server, and the modules it leaves out),
# the fresh cluster new data directories start from, and production dependencies only, as an
# unprivileged user.
# Configuration comes from the environment (README "Configuration"); HOST=0.0.0.0 to be reachable.
FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 LEDGER_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
CMD ["node", "dist/server/main.js"]

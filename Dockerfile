# One image for every process; the command picks which (see compose.yaml and docs/operations.md).
# `npm run build` makes dist/: the processes, run compiled with plain node, which receives SIGTERM
# itself (graceful shutdown; no TypeScript is loaded at start), and the element and console the BFF serves.
#   docker run IMAGE                                            the API server (default)
#   docker run IMAGE node dist/worker/main.js                   a worker
#   docker run IMAGE node dist/bff/main.js                      a BFF
#   docker run IMAGE node dist/server/cli/admin.js workspace …  an operator command (docs/commands.md)

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
# One process per container: the worker's health port can be fixed, for probes (EXPOSE below).
ENV NODE_ENV=production HOST=0.0.0.0 BFF_HOST=0.0.0.0 WORKER_HEALTH_HOST=0.0.0.0 WORKER_HEALTH_PORT=3001
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# What is not compiled is read from the project root at run time: migrations and pages.
COPY server/core/platform/db/migrations ./server/core/platform/db/migrations
COPY bff/viewer ./bff/viewer
COPY demo ./demo
USER node
EXPOSE 3000 8080 3001
CMD ["node", "dist/server/main.js"]

# One image for every process; the command picks which (see compose.yaml and the README,
# "Running in production"). The commands are the ones the tests start: node loads tsx itself, so
# SIGTERM reaches the program (graceful shutdown), not a wrapper.
#   docker run IMAGE                                   the API server (default)
#   docker run IMAGE node --import tsx worker/main.ts  a worker
#   docker run IMAGE node --import tsx bff/main.ts     a BFF

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build:element

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 BFF_HOST=0.0.0.0 WORKER_HEALTH_HOST=0.0.0.0
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY server ./server
COPY worker ./worker
COPY bff ./bff
COPY demo ./demo
COPY tsconfig.json tsconfig.base.json ./
USER node
EXPOSE 3000 8080 3001
CMD ["node", "--import", "tsx", "server/main.ts"]

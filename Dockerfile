# The agent worker as production runs it: compiled JavaScript with plain node (`node dist/worker/main.js`), the
# workflow code pre-bundled by the build; no tsx, no npm wrapper, no compiler in the running image.
#   docker build -t agent-worker .
#   docker run -e TEMPORAL_ADDRESS=host:7233 -e LLM_MODEL=openai:gpt-4o-mini -e LLM_KEY=… agent-worker
# Settings are the environment variables of config/example.env. The demo MCP servers of config/mcp_endpoints.json
# (fx, shop) still run from their TypeScript source through tsx, a production dependency; your own need not.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: the postinstall fetches the Temporal CLI, which only `npm start` and the tests use.
RUN npm install --no-audit --no-fund --ignore-scripts
COPY . .
# tsc → dist/, the workflow bundle → dist/workflow-bundle.js, the web chat → dist/web.
RUN npm run build

FROM node:20-bookworm-slim
ENV NODE_ENV=production
# Fewer glibc malloc arenas keep the native side (the SDK's Rust core, gRPC) from fragmenting: ~50 MB less RSS with
# 1,000 conversations, measured.
ENV MALLOC_ARENA_MAX=2
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY config ./config
COPY mcp/servers ./mcp/servers
# DATA_DIR (demo data, the shop server's records): mount a volume here to keep it across containers.
RUN mkdir data && chown node:node data
USER node
CMD ["node", "dist/worker/main.js"]

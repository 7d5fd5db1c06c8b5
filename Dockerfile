# Herald's image: `herald serve` by default; any herald command as the arguments (api, worker, mcp, migrate,
# backup, restore, doctor, projects, keys, users).
#
#   docker build -t herald .
#   docker run -p 3000:3000 -v herald-data:/data herald
#
# Three stages: the build (dev dependencies, the dashboard and the server compiled), the production dependencies
# alone, and the runtime with only those and the built files, run as the unprivileged `node` user.
ARG NODE_IMAGE=docker.io/library/node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: nothing Herald needs runs one, and the build below is explicit.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run build:web && npm run build:server

FROM ${NODE_IMAGE} AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
# Type declarations, source maps and readmes are never loaded at run time: about a third of the folder.
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force && \
    find node_modules -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' \
      -o -name '*.md' \) -delete

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    SUBMISSION_SMTP_HOST=0.0.0.0 \
    INBOUND_SMTP_HOST=0.0.0.0 \
    FEEDBACK_SMTP_HOST=0.0.0.0
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
COPY package.json CHANGELOG.md ./
COPY bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# HTTP (API, dashboard, tracking). The SMTP listeners are off unless their ports are set; the ports below are the
# ones docs/deployment.md suggests: SUBMISSION_SMTP_PORT (relay), INBOUND_SMTP_PORT (receiving).
EXPOSE 3000 2587 2525
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/app/bin/herald.js"]
CMD ["serve"]

# syntax=docker/dockerfile:1
# One image for every part: `service`, `bff` and `migrate` are commands of the same `invoicekit` binary.
# It installs the package as users get it (npm pack, then npm install of the tarball), without dev tools.

FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm pack --ignore-scripts --pack-destination /dist

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /dist/ /tmp/packages/
RUN npm install --omit=dev --no-audit --no-fund /tmp/packages/invoicekit-*.tgz \
  && rm -rf /tmp/packages /root/.npm \
  && mkdir -p /data /secrets && chown node:node /data /secrets
USER node
# PGlite keeps its data here when DATABASE_URL is not set (one process only).
VOLUME /data
# The key that seals secrets at rest, made on first start, kept apart from the data (or give
# INVOICEKIT_SECRET_KEY instead).
ENV INVOICEKIT_SECRET_KEY_FILE=/secrets/invoicekit.key
VOLUME /secrets
EXPOSE 8787 8788
# Liveness; readiness (/readyz) is for the load balancer.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "const p=process.env.HEALTH_PORT||8787;fetch('http://127.0.0.1:'+p+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "/app/node_modules/invoicekit/dist/lib/cli.js"]
CMD ["service", "--host", "0.0.0.0", "--port", "8787", "--data-dir", "/data"]

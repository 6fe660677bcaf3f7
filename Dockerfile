# The API and the worker: one image, two commands (docker-compose.yml runs both).
#   docker build -t seo-api .
#   docker run seo-api npm run start:api     |     docker run seo-api npm run start:worker
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-slim
ENV NODE_ENV=production LOG_FORMAT=json
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
# Migrations are idempotent: the API applies pending ones before it starts.
CMD ["sh", "-c", "node dist/libs/database/src/cli/migrate.js && exec node --max-semi-space-size=64 dist/apps/api/src/main.js"]

# Image for the api and the worker (docker-compose.yml runs both from it, plus a one-shot migrate).
FROM node:20-slim

WORKDIR /app
ENV NODE_ENV=production

COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

COPY . .

USER node
EXPOSE 3000
# The worker uses: node --import tsx worker/main.ts
CMD ["node", "--import", "tsx", "api/main.ts"]

// Vite serves the app; the API server (server.ts) answers /api. The proxy puts both on one
// origin in development, as they are in production: no CORS, and the result page's statusUrl
// is the same relative address in both. API_URL: where server.ts listens.
import { defineConfig } from 'vite';

export default defineConfig({
  server: {
    proxy: { '/api': process.env.API_URL ?? 'http://127.0.0.1:3000' },
  },
});

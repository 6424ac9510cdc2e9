// Builds the web chat (web/) into dist/web, which the API serves at `/`. `npx vite --config web/vite.config.ts`
// serves it with hot reload and sends /api to an API on :8080 (npm start), so both run side by side.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  plugins: [react()],
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    // The out dir lies outside the root: Vite empties it only when told (it holds nothing but this build).
    emptyOutDir: true,
  },
  server: {
    proxy: { '/api': { target: process.env.API_URL ?? 'http://127.0.0.1:8080', changeOrigin: true } },
  },
});

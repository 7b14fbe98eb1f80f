import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, defaultClientConditions } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The showcase uses the before/after photos made with our engine when all six are present, else drawings. */
const SHOWCASE_FILES = ['casual', 'swap', 'pro'].flatMap((n) => [`${n}-before.webp`, `${n}-after.webp`]);
const hasShowcasePhotos = SHOWCASE_FILES.every((f) => fs.existsSync(path.join(here, 'public/showcase', f)));

export default defineConfig({
  plugins: [react(), tailwindcss()],
  define: { __SHOWCASE_PHOTOS__: JSON.stringify(hasShowcasePhotos) },
  resolve: { conditions: ['source', ...defaultClientConditions] },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
  preview: {
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        codeSplitting: {
          // React, zod and the contract in one chunk with the zod set-up that must run before any
          // schema is built (src/lib/zod-config.ts); its modules keep their import order inside it.
          groups: [
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|zod)[\\/]|packages[\\/]contract[\\/]|src[\\/]lib[\\/]zod-config/,
            },
          ],
        },
      },
    },
  },
});

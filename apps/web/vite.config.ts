import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { defineConfig, defaultClientConditions, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { catalogs } from './vite-catalogs.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Writes `.br` and `.gz` next to every text asset of the build, so a static server that serves
 * precompressed files (for example @fastify/static with `preCompressed: true`) sends them compressed.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'aidressup-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        fs
          .readdirSync(dir, { withFileTypes: true })
          .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json|md)$/.test(file)) continue;
        const data = fs.readFileSync(file);
        // Even a small script is worth it: its compressed copy spares a phone a few hundred bytes per request.
        if (data.length < 512) continue;
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

/**
 * What the dev server (`npm run dev`) and `vite preview` pass to the API on PORT (default 3000): the
 * API itself and the public pages of shared results (`/s/<token>`, made by the server). The Host
 * header is kept, so the links the server hands out on localhost point at this dev server.
 */
const apiOrigin = `http://127.0.0.1:${process.env.PORT ?? '3000'}`;
const serverProxy = { '/api': apiOrigin, '/s/': apiOrigin };

export default defineConfig({
  plugins: [react(), tailwindcss(), catalogs(), precompress()],
  resolve: { conditions: ['source', ...defaultClientConditions] },
  server: {
    port: 5173,
    proxy: serverProxy,
  },
  preview: {
    proxy: serverProxy,
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      // The app, and the shop widget's frame (/embed, docs/embed.md) as a small entry of its own.
      input: { main: path.join(here, 'index.html'), embed: path.join(here, 'embed.html') },
      // The contract builds its schemas at module level with `z.…` calls that have no other effect:
      // a schema that no code uses is dropped instead of being built when its module loads.
      treeshake: { manualPureFunctions: ['z'] },
      output: {
        codeSplitting: {
          groups: [
            { name: 'vendor', test: /node_modules[\\/](react|react-dom|scheduler|@lingui[\\/]core)[\\/]/ },
            // zod with the set-up that must run before any schema is built or used
            // (src/lib/zod-config.ts): every chunk that builds or uses a schema imports this one, so
            // the set-up has always run first, whichever of the app's chunks comes first.
            { name: 'zod', test: /node_modules[\\/]zod[\\/]|src[\\/]lib[\\/]zod-config/ },
            // The contract's modules that the first page uses (constants, messages, small schemas): one
            // chunk instead of several very small ones.
            {
              name: 'contract',
              test: /packages[\\/]contract[\\/]src[\\/](categories|errors|garments|image-signature|limits|locales|messages|paths|progress|user|web)\.ts/,
            },
            // The contract's large schema modules, with the loader's list of the schemas the first
            // page's code uses (src/lib/response-schemas.ts): one chunk, loaded beside the first
            // page's scripts rather than in them, and built in a task of its own.
            {
              name: 'schemas',
              test: /src[\\/]lib[\\/]response-schemas|packages[\\/]contract[\\/]src[\\/](api|account|photos|plans|report)\.ts/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
});

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { firstLoadChunks } from './build/first-load-chunks.ts';
import { precompress } from './build/precompress.ts';
import { startChunks } from './build/start-chunks.ts';
import { VENDOR_CHUNKS } from './build/vendor-chunks.ts';

// In development Vite serves the app and proxies the API to the Fastify server
// (`npm run dev` starts both). In production the server serves the built files itself
// (docs/front-end.md: how they are split, compressed and cached).
const apiTarget = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:3000';

const SHELL_STYLES_MARKER =
  '/* @shell-styles: web/build/shell-styles.css, put in by web/vite.config.ts */';

/**
 * Puts the shell's styles, which web/index.html and web/login.html share, into each page's inline
 * <style> where the marker stands (docs/front-end.md "The shell before the app").
 */
function shellStyles(): Plugin {
  const file = fileURLToPath(new URL('build/shell-styles.css', import.meta.url));
  return {
    name: 'learning-hub:shell-styles',
    transformIndexHtml: {
      order: 'pre',
      handler(html, { path }) {
        if (!html.includes(SHELL_STYLES_MARKER)) {
          throw new Error(`${path}: the shell-styles marker is missing`);
        }
        const css = readFileSync(file, 'utf8').replace(/^\/\*[\s\S]*?\*\/\n/, '');
        return html.replace(SHELL_STYLES_MARKER, css.trim());
      },
    },
  };
}

const firstLoad = firstLoadChunks();

export default defineConfig({
  plugins: [react(), precompress(), shellStyles(), startChunks(), firstLoad.plugin],
  server: {
    port: 5173,
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // Every browser the hub supports knows <link rel="modulepreload">: no polyfill chunk.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      // Every page is index.html, except /login's first load: login.html, the sign-in page as
      // plain HTML that loads the app when it is used (docs/front-end.md).
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        login: fileURLToPath(new URL('login.html', import.meta.url)),
        // The app itself, which both pages import once they have painted (src/entry.ts,
        // src/login.ts). An entry of its own, so what it needs counts as initial for the vendor
        // chunk below rather than being cut into a score of small chunks.
        main: fileURLToPath(new URL('src/main.tsx', import.meta.url)),
      },
      output: {
        // Libraries in chunks of their own, so that they stay cached across releases of the app's
        // code and each loads only where it is used (docs/front-end.md). Everything else,
        // @mantine/core included, is split by the bundler along the lazy imports.
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [
            ...VENDOR_CHUNKS.map(({ name, test, tags }, i) => ({
              name,
              test,
              ...(tags ? { tags } : {}),
              priority: VENDOR_CHUNKS.length - i,
            })),
            // The app's own code of the first load in one chunk (build/first-load-chunks.ts).
            firstLoad.group,
          ],
        },
      },
    },
  },
});

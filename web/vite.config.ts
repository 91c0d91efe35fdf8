import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress.ts';

// In development Vite serves the app and proxies the API to the Fastify server
// (`npm run dev` starts both). In production the server serves the built files itself
// (docs/front-end.md: how they are split, compressed and cached).
const apiTarget = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:3000';

/**
 * The vendor chunks: what every page needs (react, router, query, zod) and the big libraries of
 * single features (the rich-text editor, dates, drag and drop), which load only with them.
 */
const VENDOR_CHUNKS: ReadonlyArray<{ name: string; test: RegExp; tags?: ['$initial'] }> = [
  { name: 'react', test: /\/node_modules\/(?:react|react-dom|scheduler)\// },
  { name: 'router', test: /\/node_modules\/react-router\// },
  { name: 'query', test: /\/node_modules\/@tanstack\/(?:query-core|react-query)\// },
  { name: 'zod', test: /\/node_modules\/zod\// },
  {
    name: 'editor',
    test: /\/node_modules\/(?:@tiptap\/[^/]+|prosemirror-[^/]+|@mantine\/tiptap|linkifyjs|orderedmap|rope-sequence|w3c-keyname|fast-equals|use-sync-external-store)\//,
  },
  { name: 'dates', test: /\/node_modules\/(?:@mantine\/dates|dayjs)\// },
  { name: 'dnd', test: /\/node_modules\/@dnd-kit\/[^/]+\// },
  // The rest of what the first page needs (Mantine's core, its hooks, …) in one chunk rather than
  // in a score of small ones, each a request of its own on a slow network.
  { name: 'vendor', test: /\/node_modules\//, tags: ['$initial'] },
];

/**
 * Moves index.html's stylesheets from the head to the end of the body: the shell index.html draws
 * with its inline styles then paints at once instead of after the stylesheet (a stylesheet in the
 * body holds up only what follows it); the app's scripts still run only once it is there.
 */
function stylesAfterShell(): Plugin {
  return {
    name: 'learning-hub:styles-after-shell',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { path }) {
        if (path !== '/index.html') return html;
        const links = html.match(/<link rel="stylesheet"[^>]*>\n?/g) ?? [];
        let out = html;
        for (const link of links) out = out.replace(link, '');
        return out.replace('</body>', `${links.map((l) => `  ${l.trim()}\n`).join('')}  </body>`);
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress(), stylesAfterShell()],
  server: {
    port: 5173,
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      // Every page is index.html, except /login's first load: login.html, the sign-in page as
      // plain HTML that loads the app when it is used (docs/front-end.md).
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        login: fileURLToPath(new URL('login.html', import.meta.url)),
      },
      output: {
        // Libraries in chunks of their own, so that they stay cached across releases of the app's
        // code and each loads only where it is used (docs/front-end.md). Everything else,
        // @mantine/core included, is split by the bundler along the lazy imports.
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: VENDOR_CHUNKS.map(({ name, test, tags }, i) => ({
            name,
            test,
            ...(tags ? { tags } : {}),
            priority: VENDOR_CHUNKS.length - i,
          })),
        },
      },
    },
  },
});

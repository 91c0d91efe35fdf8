/**
 * The vendor chunks of the build (web/vite.config.ts): what every page needs (react, router,
 * query, zod) and the big libraries of single features (the rich-text editor, dates, drag and
 * drop), which load only with them.
 *
 * core's zod configuration (core/src/zod-config.ts: `jitless`, so zod never probes
 * `new Function`, which the CSP refuses) goes into the zod chunk, after zod itself. A chunk's
 * static imports run before its own code, so in any other chunk the configuration would run after
 * the chunks it imports — and those build schemas (the route guard's lookup, the contracts) with
 * zod's default, probing `new Function` and reporting a CSP violation on every page. In the zod
 * chunk it runs before any module that uses zod, whichever chunk that module is in.
 */
export interface VendorChunk {
  name: string;
  test: RegExp;
  tags?: ['$initial'];
}

export const VENDOR_CHUNKS: readonly VendorChunk[] = [
  { name: 'react', test: /\/node_modules\/(?:react|react-dom|scheduler)\// },
  { name: 'router', test: /\/node_modules\/react-router\// },
  { name: 'query', test: /\/node_modules\/@tanstack\/(?:query-core|react-query)\// },
  { name: 'zod', test: /\/node_modules\/zod\/|\/core\/src\/zod-config\.ts$/ },
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

/** The vendor chunk a module goes to (the first group that matches, as the bundler's priorities). */
export function vendorChunkOf(moduleId: string): string | null {
  return VENDOR_CHUNKS.find((c) => c.test.test(moduleId))?.name ?? null;
}

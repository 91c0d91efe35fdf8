/**
 * The directory of the demo seed's media (a short video), `server/assets/demo`. This module sits
 * one level under `server/` both as source (`src/`) and bundled (`dist/`), so the same relative
 * URL finds it either way.
 */
import { fileURLToPath } from 'node:url';

export const DEMO_ASSETS_DIR = fileURLToPath(new URL('../assets/demo/', import.meta.url));

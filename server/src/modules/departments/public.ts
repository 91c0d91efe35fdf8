/**
 * What other areas may use of this area (docs/architecture.md, "Areas and the platform"): they
 * import it from here, never from the area's other files (lint enforces it).
 */
export { memberIds } from './department-repository';

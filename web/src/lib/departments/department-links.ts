/**
 * Addresses of department pages. A department's page carries its URL name (`slug`, which a rename
 * changes; former names redirect), not its id: a link is `href('department', { deptName: slug ?? id })`
 * (lib/links.ts). The
 * route guard turns the name back into the id before it checks department.view there
 * (lib/route-params.tsx, app/route-params.ts).
 */
import type { DepartmentLookupSchema } from '@learning-hub/core';
import { z } from 'zod';
import { api, isClientError } from '../api-client';
import type { RouteParamResolver } from '../route-params';

/**
 * The answer of the lookup: core's `DepartmentLookupSchema`, declared again here because the
 * route guard is in the first chunk: importing the contract would evaluate every department and
 * admin contract at start (docs/front-end.md, "What loads first"). The type keeps the two alike.
 */
const LookupSchema: z.ZodType<z.infer<typeof DepartmentLookupSchema>> = z.object({
  id: z.string(),
  slug: z.string(),
});

/** The route of one department's page (core's ROUTES). */
export const DEPARTMENT_ROUTE = '/departments/:deptName';

/**
 * GET /api/departments/lookup/{name}: the department a current or former URL name names (null
 * when none has or had it).
 */
export const departmentNameResolver: RouteParamResolver = {
  param: 'deptName',
  resolve: async (name, signal) => {
    try {
      const found = await api.get(
        `/api/departments/lookup/${encodeURIComponent(name)}`,
        LookupSchema,
        { signal },
      );
      return { id: found.id, canonical: found.slug };
    } catch (error) {
      if (isClientError(error) && error.status === 404) return null;
      throw error;
    }
  },
};

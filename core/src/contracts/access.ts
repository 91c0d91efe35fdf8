import { z } from 'zod';
import { CONTEXT_ROLE_IDS, isPermissionId } from '../access';

const Id = z.string().min(1).max(200);

/** A permission id of the catalogue; anything else is rejected as invalid (spec §5). */
export const PermissionIdSchema = z
  .string()
  .refine(isPermissionId, { error: (issue) => `Invalid permission: ${String(issue.input)}` });

export const SystemContextSchema = z.object({ type: z.literal('system') });
export const CourseContextSchema = z.object({ type: z.literal('course'), courseId: Id });
export const DepartmentContextSchema = z.object({
  type: z.literal('department'),
  departmentId: Id,
});
export const UserContextSchema = z.object({ type: z.literal('user'), userId: Id });
export const CustomContextSchema = z.object({
  type: z.literal('custom'),
  contextId: Id,
  contextType: Id,
});

/** A context of spec §3. */
export const AccessContextSchema = z.discriminatedUnion('type', [
  SystemContextSchema,
  CourseContextSchema,
  DepartmentContextSchema,
  UserContextSchema,
  CustomContextSchema,
]);

/** A context assignment of spec §3. */
export const ContextAssignmentSchema = z.object({
  userId: z.string(),
  context: AccessContextSchema,
  roles: z.array(z.enum(CONTEXT_ROLE_IDS)).readonly(),
  directPermissions: z.array(PermissionIdSchema).readonly(),
  assignedBy: z.string(),
  /** ISO 8601. */
  assignedAt: z.string(),
  /** ISO 8601, or null when it never expires. */
  expiresAt: z.string().nullable(),
  isActive: z.boolean(),
});

/**
 * What the client needs to run the same permission checks as the server for the signed-in user:
 * the permission side of the user (spec §3).
 */
export const AccessSnapshotSchema = z.object({
  userId: z.string(),
  role: z.string(),
  isSuperAdmin: z.boolean(),
  directPermissions: z.array(PermissionIdSchema),
  contextAssignments: z.array(ContextAssignmentSchema),
  /** The custom roles in the user's role chain (system roles are known to every client). */
  customRoles: z.array(z.lazy(() => SnapshotRoleSchema)),
});
export type AccessSnapshot = z.infer<typeof AccessSnapshotSchema>;

/** A custom role definition sent with a user's snapshot so the client resolves it as the server does. */
export const SnapshotRoleSchema = z.object({
  id: z.string(),
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  permissions: z.array(PermissionIdSchema).readonly(),
  inherits: z.string().nullable(),
  context: z.literal('global'),
  isSystemRole: z.boolean(),
  priority: z.number(),
});

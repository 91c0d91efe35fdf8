/**
 * Department pages (spec §2 `/departments`, `/departments/{deptName}`: department.view; spec §6
 * department.view, .manage and the department-manager and department-member context roles).
 * Membership and management are context assignments in the department (with their expiry and
 * audit trail), never a table of their own; a person also belongs to the department named on
 * their account (derived, not stored as an assignment). See docs/departments.md.
 */
import { z } from 'zod';
import { DepartmentSchema } from './admin';
import {
  departmentName,
  ExpectedRevisionSchema,
  IsoDateTime,
  PageQuerySchema,
  pageOf,
  pageQuery,
  storableText,
} from './common';

/** Longest department description, in characters of HTML. */
export const DEPARTMENT_DESCRIPTION_MAX = 50_000;

const id = z.string().min(1).max(200);
const description = storableText(DEPARTMENT_DESCRIPTION_MAX, 'The description').describe(
  'HTML from the rich-text editor; sanitised by the server with an allow-list before it is stored',
);

export const DepartmentParamsSchema = z.object({ departmentId: id });
export const DepartmentMemberParamsSchema = z.object({ departmentId: id, userId: id });

/** `GET /api/departments?archived=true`: admins see archived departments too. */
export const DepartmentListQuerySchema = pageQuery({ defaultSize: 200, maxSize: 200 }).extend({
  archived: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});

/**
 * `GET /api/departments/lookup/{name}`: the department a URL name names — its current slug, or a
 * slug it had before a rename (then `slug` differs and the web app redirects to it). 404 when no
 * department has or had that name.
 */
export const DepartmentLookupParamsSchema = z.object({ name: z.string().min(1).max(200) });
export const DepartmentLookupSchema = z.object({ id: z.string(), slug: z.string() });

/** A new department (`POST /api/departments`, admins). Answers 201 with the department. */
export const DepartmentCreateSchema = z.strictObject({
  name: departmentName('The name'),
  description: description.default(''),
});

/**
 * `PATCH /api/departments/{departmentId}`: the description (department.manage there); the name
 * and archiving (admins: system.admin). A new name gives a new slug; the old one redirects.
 */
export const DepartmentUpdateSchema = z
  .strictObject({
    name: departmentName('The name').optional(),
    description: description.optional(),
    archived: z.boolean().optional(),
    /** The revision the change is based on: 409 when someone else changed the department since. */
    revision: ExpectedRevisionSchema,
  })
  .refine((v) => Object.keys(v).some((key) => key !== 'revision'), {
    message: 'Nothing to change',
  });

/** A course of the department with its members' progress in it. */
export const DepartmentCourseSchema = z.object({
  id: z.string(),
  code: z.string(),
  title: z.string(),
  status: z.string(),
  /** The department's members enrolled in it (active enrolments). */
  enrolledMembers: z.number().int().nonnegative(),
  /** Of those, how many completed it. */
  completedMembers: z.number().int().nonnegative(),
  /** Their average progress, 0–100 (0 with nobody enrolled). */
  averageProgress: z.number().min(0).max(100),
});

/** One department with everything its page shows (besides the members, which page on their own). */
export const DepartmentDetailSchema = DepartmentSchema.extend({
  slug: z.string(),
  createdAt: IsoDateTime,
  /** Courses of the department the viewer may see. */
  courses: z.array(DepartmentCourseSchema),
  /** The department's library items the viewer may see, newest first (at most 8). */
  library: z.object({
    items: z.array(
      z.object({ id: z.string(), title: z.string(), kind: z.string(), updatedAt: IsoDateTime }),
    ),
    total: z.number().int().nonnegative(),
  }),
  /** Its wiki space: key, published page count and the latest pages (at most 8). */
  wiki: z.object({
    spaceKey: z.string(),
    pageCount: z.number().int().nonnegative(),
    pages: z.array(z.object({ id: z.string(), title: z.string(), updatedAt: IsoDateTime })),
  }),
  can: z.object({
    /** department.manage there: description, members, managers. */
    manage: z.boolean(),
    /** Admins: rename and archive. */
    administer: z.boolean(),
  }),
});
export type DepartmentDetail = z.infer<typeof DepartmentDetailSchema>;

/** The two roles a department page hands out. */
export const DEPARTMENT_MEMBER_ROLES = ['department-member', 'department-manager'] as const;
export const DepartmentMemberRoleSchema = z.enum(DEPARTMENT_MEMBER_ROLES);

/** `GET /api/departments/{departmentId}/members` query. */
export const DepartmentMemberQuerySchema = PageQuerySchema.extend({
  /** Matches username, first and last name, case-insensitively. */
  search: z.string().trim().max(100).optional(),
  /** Only managers. */
  role: DepartmentMemberRoleSchema.optional(),
});

/** A member of a department. */
export const DepartmentMemberSchema = z.object({
  id: z.string(),
  username: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  /** Context roles held there (the derived department-member included). */
  roles: z.array(z.string()),
  /**
   * `account`: the department is on their account (derived; removed by changing the account's
   * department); `assignment`: a context assignment made here or by an admin.
   */
  source: z.enum(['account', 'assignment']),
  /** When the assignment ends (null: no end date, or membership by account). */
  expiresAt: IsoDateTime.nullable(),
});
export type DepartmentMember = z.infer<typeof DepartmentMemberSchema>;
export const DepartmentMemberListSchema = pageOf(DepartmentMemberSchema);

/**
 * Adding a person (`POST …/members`) or changing their role and end date
 * (`PATCH …/members/{userId}`): department.manage there. `department-manager` also makes them a
 * member. Answers with the member (201 when added).
 */
export const DepartmentMemberInputSchema = z.strictObject({
  userId: id,
  role: DepartmentMemberRoleSchema.default('department-member'),
  /** The assignment's end; null: no end date. Must be in the future. */
  expiresAt: IsoDateTime.nullable().default(null),
});
/** A change names both the role and the end date (null: none); nothing is implied by absence. */
export const DepartmentMemberUpdateSchema = z.strictObject({
  role: DepartmentMemberRoleSchema,
  expiresAt: IsoDateTime.nullable(),
});

/**
 * `GET /api/departments/{departmentId}/candidates?search=`: active people a manager may add
 * (at most 10), for the add-member picker.
 */
export const DepartmentCandidateQuerySchema = pageQuery({ defaultSize: 10, maxSize: 10 }).extend({
  search: z.string().trim().min(1).max(100),
});
export const DepartmentCandidateListSchema = pageOf(
  z.object({
    id: z.string(),
    username: z.string(),
    name: z.string(),
    departmentName: z.string().nullable(),
    /** Already a member here. */
    member: z.boolean(),
  }),
);

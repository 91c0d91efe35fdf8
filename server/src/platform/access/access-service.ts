/**
 * The server's side of the permission model: one compiled engine (core) holding the permissions
 * of the users seen recently, the role registry with the custom roles, and the audit ring of
 * every check.
 *
 * Caching is exact: every request reads the user's `access_version` and the custom roles'
 * `roles_version` together with its session (one query, or the SQLite session cache that any
 * write invalidates), and a user whose versions differ from those loaded is reloaded from the
 * database before the check. Any change made through any server instance therefore takes effect
 * on the very next request everywhere; expiring assignments are handled by the engine itself.
 */
import {
  AccessEngine,
  AuditRing,
  isAssignmentInForce,
  ownDepartmentAssignment,
  RoleRegistry,
  type AccessRequirement,
  type AccessSnapshot,
  type AccessSubject,
  type CheckScope,
  type ContextAssignment,
  type Decision,
  type Role,
} from '@learning-hub/core';
import type { Db } from '../db';
import type { UserRecord } from '../auth/user-repository';
import {
  getRolesVersion,
  listAssignments,
  listCustomRoles,
  listUserPermissions,
} from './access-repository';

/** Users whose compiled permissions are kept (least recently used dropped first). */
const DEFAULT_CAPACITY = 50_000;

export class AccessService {
  readonly audit = new AuditRing();
  readonly engine: AccessEngine;
  private rolesVersion = -1;
  private roleLoad: Promise<void> | null = null;
  /** userId → access_version loaded into the engine, in least-recently-used order. */
  private readonly loaded = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {
    this.engine = new AccessEngine({ audit: this.audit, now });
  }

  /** The role registry (system + custom roles) as last loaded. */
  get roles(): RoleRegistry {
    return this.engine.roleRegistry;
  }

  /** Makes sure the custom roles are those of `version` (reloading them if not). */
  async ensureRoles(version: number): Promise<RoleRegistry> {
    while (version !== this.rolesVersion) {
      if (!this.roleLoad) {
        this.roleLoad = (async () => {
          const current = await getRolesVersion(this.db);
          const custom = await listCustomRoles(this.db);
          this.engine.setRoles(new RoleRegistry(custom));
          this.rolesVersion = current;
        })().finally(() => {
          this.roleLoad = null;
        });
      }
      await this.roleLoad;
      // Another instance may have changed roles again meanwhile: take what the database says.
      if (version !== this.rolesVersion) version = this.rolesVersion;
    }
    return this.roles;
  }

  /** Reloads the custom roles now (after this instance changed them). */
  async refreshRoles(): Promise<RoleRegistry> {
    return this.ensureRoles(await getRolesVersion(this.db));
  }

  /**
   * A user's permission data, read from the database (`db`: a transaction the caller is in, whose
   * connection SQLite's one writer holds).
   */
  async loadSubject(user: UserRecord, db: Db = this.db): Promise<AccessSubject> {
    const [directPermissions, stored] = await Promise.all([
      listUserPermissions(db, user.id),
      listAssignments(db, user.id),
    ]);
    const derived: ContextAssignment[] = user.departmentId
      ? [ownDepartmentAssignment(user.id, user.departmentId, user.createdAt)]
      : [];
    return {
      id: user.id,
      role: user.role,
      isSuperAdmin: user.isSuperAdmin,
      directPermissions,
      // The derived membership first: a stored assignment for the same department adds to it.
      contextAssignments: [...derived, ...stored],
    };
  }

  /**
   * Makes sure the engine holds the user's current permissions. `rolesVersion` comes from the
   * same read as `user` (the session query), so both are as fresh as the request.
   */
  async ensureUser(user: UserRecord, rolesVersion: number): Promise<void> {
    await this.ensureRoles(rolesVersion);
    if (this.holdsUser(user)) return;
    this.engine.load(await this.loadSubject(user));
    this.loaded.delete(user.id);
    this.loaded.set(user.id, user.accessVersion);
    while (this.loaded.size > this.capacity) {
      const oldest = this.loaded.keys().next().value as string;
      this.loaded.delete(oldest);
      this.engine.remove(oldest);
    }
  }

  /**
   * Whether the engine already holds the user's permissions of these versions (the user's
   * `access_version`, the custom roles' `roles_version`), with no database read: then `ensureUser`
   * has nothing to do, and a request need not wait for it. Marks the user as recently used.
   */
  isCurrent(user: UserRecord, rolesVersion: number): boolean {
    return rolesVersion === this.rolesVersion && this.holdsUser(user);
  }

  /** Whether the engine holds the user at their `access_version` (marked recently used if so). */
  private holdsUser(user: UserRecord): boolean {
    const loaded = this.loaded.get(user.id);
    if (loaded !== user.accessVersion || !this.engine.has(user.id)) return false;
    this.loaded.delete(user.id);
    this.loaded.set(user.id, loaded);
    return true;
  }

  /** Checks a requirement for a loaded user (see ensureUser); audited. */
  decide(userId: string, requirement: AccessRequirement, scope: CheckScope): Decision {
    return this.engine.decideRequirement(userId, requirement, scope);
  }

  /** The custom roles of a role's chain (the client knows the system roles already). */
  customRoleChain(roleId: string): Role[] {
    return this.roles.chain(roleId).filter((r) => !r.isSystemRole);
  }

  /** What the client needs to run the same checks: the loaded subject, in-force assignments only. */
  snapshot(user: UserRecord): AccessSnapshot {
    const subject = this.engine.subjectOf(user.id);
    const at = this.now();
    return {
      userId: user.id,
      role: user.role,
      isSuperAdmin: user.isSuperAdmin,
      directPermissions: [...(subject?.directPermissions ?? [])].filter(
        (p): p is AccessSnapshot['directPermissions'][number] => typeof p === 'string',
      ),
      contextAssignments: (subject?.contextAssignments ?? []).filter((a) =>
        isAssignmentInForce(a, at),
      ),
      customRoles: this.customRoleChain(user.role),
    };
  }
}

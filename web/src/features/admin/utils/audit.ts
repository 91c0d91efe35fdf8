/** Readable text for the durable access audit trail. */
import type { AccessAuditEntry } from '@learning-hub/core';
import { formatDateTime } from '../../../lib/format';
import type { AccessAuditAction } from '../api/access-api';

export const AUDIT_ACTION_LABELS: Readonly<Record<AccessAuditAction, string>> = {
  'role.set': 'Role changed',
  'permission.grant': 'Permission granted',
  'permission.revoke': 'Permission revoked',
  'assignment.create': 'Assignment created',
  'assignment.replace': 'Assignment replaced',
  'assignment.remove': 'Assignment removed',
  'custom_role.create': 'Custom role created',
  'custom_role.update': 'Custom role updated',
  'custom_role.delete': 'Custom role deleted',
  'auth_method.set': 'Sign-in method switched',
  'auth_provider.create': 'Sign-in provider created',
  'auth_provider.update': 'Sign-in provider updated',
  'auth_provider.delete': 'Sign-in provider deleted',
  'user.create': 'User created',
  'user.update': 'User details changed',
  'user.deactivate': 'User deactivated',
  'user.reactivate': 'User reactivated',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown): string {
  return Array.isArray(value) && value.length > 0 ? value.map(String).join(', ') : 'none';
}

function grantText(value: unknown): string {
  if (!isRecord(value)) return '';
  const expires = typeof value.expiresAt === 'string' ? formatDateTime(value.expiresAt) : 'never';
  return `roles ${list(value.roles)}; permissions ${list(value.directPermissions)}; expires ${expires}`;
}

function show(value: unknown): string {
  if (Array.isArray(value)) return list(value);
  if (value === null || value === undefined || value === '') return '—';
  return String(value);
}

/** The particulars of an audit entry as short lines ('' parts dropped). */
export function auditDetailLines(entry: AccessAuditEntry): string[] {
  const d = entry.details;
  switch (entry.action) {
    case 'role.set':
      return [`${show(d.from)} → ${show(d.to)}`];
    case 'assignment.create':
    case 'assignment.remove':
      return [grantText(d)];
    case 'assignment.replace':
      return [
        `Now: ${grantText(d)}`,
        ...(isRecord(d.previous) ? [`Before: ${grantText(d.previous)}`] : []),
      ];
    case 'custom_role.create':
    case 'custom_role.delete':
      return [
        `${show(d.displayName)}: inherits ${show(d.inherits)}; adds ${list(d.permissions)}${
          d.priority !== undefined ? `; priority ${show(d.priority)}` : ''
        }`,
      ];
    case 'custom_role.update': {
      const before = isRecord(d.before) ? d.before : {};
      const after = isRecord(d.after) ? d.after : {};
      const lines = Object.keys(after)
        .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
        .map((key) => `${key}: ${show(before[key])} → ${show(after[key])}`);
      return lines.length > 0 ? lines : ['No changes'];
    }
    case 'auth_method.set':
      return [`${show(d.method)}: ${d.enabled === true ? 'on' : 'off'}`];
    case 'auth_provider.create':
      return [`${show(d.provider)} (${show(d.method)})`];
    case 'auth_provider.update':
      return [
        `${show(d.provider)}${
          Array.isArray(d.secretsChanged) && d.secretsChanged.length > 0
            ? `; secrets changed: ${list(d.secretsChanged)}`
            : ''
        }`,
      ];
    case 'auth_provider.delete':
      return [show(d.provider)];
    case 'user.create':
      return [
        `${show(d.firstname)} ${show(d.lastname)}; role ${show(d.role)}; department ${show(d.department)}${
          d.oneTimePassword === true ? '; one-time password' : ''
        }`,
      ];
    case 'user.update': {
      const before = isRecord(d.before) ? d.before : {};
      const after = isRecord(d.after) ? d.after : {};
      return Object.keys(after).map((key) => `${key}: ${show(before[key])} → ${show(after[key])}`);
    }
    case 'user.deactivate':
      return [`Ended ${show(d.endedSessions)} session(s)`];
    case 'user.reactivate':
      return [];
    default:
      return Object.keys(d).length > 0 ? [JSON.stringify(d)] : [];
  }
}

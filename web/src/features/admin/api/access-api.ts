/** The check audit (in-memory ring of recent permission checks) and the durable access audit trail. */
import { AccessAuditSchema, CheckAuditSchema, type ACCESS_AUDIT_ACTIONS } from '@learning-hub/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryString } from '../../../lib/query-string';
import { adminKeys } from './keys';

export type AccessAuditAction = (typeof ACCESS_AUDIT_ACTIONS)[number];

export interface CheckAuditParams {
  userId?: string;
  page: number;
  pageSize: number;
}

export function useCheckAudit(params: CheckAuditParams) {
  return useQuery({
    queryKey: adminKeys.checks(params),
    queryFn: () =>
      api.get(`/api/admin/access/checks${queryString({ ...params })}`, CheckAuditSchema),
    placeholderData: keepPreviousData,
  });
}

export interface AccessAuditParams {
  userId?: string;
  actorId?: string;
  action?: AccessAuditAction;
  /** ISO 8601. */
  from?: string;
  /** ISO 8601. */
  to?: string;
  page: number;
  /** Absent: the server's default (50 for one user's view, 100 for all). */
  pageSize?: number;
}

export function useAccessAudit(params: AccessAuditParams) {
  return useQuery({
    queryKey: adminKeys.audit(params),
    queryFn: () =>
      api.get(`/api/admin/access/audit${queryString({ ...params })}`, AccessAuditSchema),
    placeholderData: keepPreviousData,
  });
}

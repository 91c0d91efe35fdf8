/**
 * The permission simulator's own call, the simulation. The users and contexts to pick come from
 * the queries of the areas that own those endpoints (admin's users, the classroom's courses, the
 * departments).
 */
import { SimulateResponseSchema, type SimulateRequest } from '@learning-hub/core';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const PICKER_SIZE = 20;

/** POST /api/admin/access/simulate: changes nothing and is not written to the check audit. */
export function useSimulate() {
  return useMutation({
    mutationFn: (request: Omit<SimulateRequest, 'scope'> & { scope?: string }) =>
      api.post('/api/admin/access/simulate', request, SimulateResponseSchema),
  });
}

import { LoginResponseSchema, MeResponseSchema } from '@learning-hub/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serializerCompiler } from './serializer';

const compile = (schema: z.ZodType) =>
  serializerCompiler({ schema, method: 'GET', url: '/x', httpStatus: '200' }) as (
    data: unknown,
  ) => string;

const user = {
  id: 'u1',
  username: 'sam',
  email: null,
  firstname: 'Sam',
  lastname: 'Rivera',
  role: 'student',
  department: 'Customer Support',
  departmentId: 'customer-support',
  avatar: null,
  lastLogin: '2026-11-22T09:00:00.000Z',
  isActive: true,
  isDefaultPassword: false,
  mustChangePassword: false,
  isSuperAdmin: false,
  authMethod: 'local',
};

describe('response serializer', () => {
  it('writes exactly what the contract declares, dropping anything else at every level', () => {
    const out = compile(MeResponseSchema)({
      user: { ...user, passwordHash: '$argon2id$secret' },
      session: { id: 's1', method: 'local', expiresAt: '2026-11-23T09:00:00.000Z', tokenHash: 'x' },
      access: {
        userId: 'u1',
        role: 'student',
        isSuperAdmin: false,
        directPermissions: [],
        customRoles: [],
        contextAssignments: [
          {
            userId: 'u1',
            context: { type: 'department', departmentId: 'customer-support' },
            roles: ['department-member'],
            directPermissions: [],
            assignedBy: 'system',
            assignedAt: '2026-01-01T00:00:00.000Z',
            expiresAt: null,
            isActive: true,
            internal: 'nope',
          },
        ],
      },
      debug: true,
    });
    expect(out).not.toContain('argon2');
    expect(out).not.toContain('tokenHash');
    expect(out).not.toContain('internal');
    expect(out).not.toContain('debug');
    expect(JSON.parse(out)).toEqual(MeResponseSchema.parse(JSON.parse(out)));
    expect(JSON.parse(out).user).toEqual(user);
  });

  it('serialises both sides of a union', () => {
    const serialize = compile(LoginResponseSchema);
    expect(JSON.parse(serialize({ success: false, error: 'Nope', stack: 'x' }))).toEqual({
      success: false,
      error: 'Nope',
    });
    const ok = JSON.parse(
      serialize({ success: true, user, token: 't', expiresAt: '2026-11-23T09:00:00.000Z' }),
    );
    expect(ok).toEqual({ success: true, user, token: 't', expiresAt: '2026-11-23T09:00:00.000Z' });
  });

  it('escapes strings safely', () => {
    const out = compile(z.object({ name: z.string() }))({ name: '"</script>\u2028\\' });
    expect(JSON.parse(out)).toEqual({ name: '"</script>\u2028\\' });
  });

  it('compiles a contract once, for every app built in the process', () => {
    expect(compile(MeResponseSchema)).toBe(compile(MeResponseSchema));
    expect(compile(MeResponseSchema)).not.toBe(compile(LoginResponseSchema));
  });
});

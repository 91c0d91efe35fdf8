/**
 * Response serialisation from the core zod contracts, compiled once per route into a
 * fast-json-stringify function (what Fastify does for JSON-schema routes). Only the properties
 * the contract declares are written, so nothing a handler did not mean to send (a password hash,
 * an internal field) can leave the server; the shapes themselves are checked at compile time by
 * the zod type provider. Validating every response with zod instead cost a quarter of the CPU of
 * the authenticated request path.
 */
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import fastJson from 'fast-json-stringify';
import { z, type ZodType } from 'zod';

/**
 * fast-json-stringify writes only declared properties whatever `additionalProperties` says, but
 * with `false` it would also make a union's branch fail to match data carrying an extra field
 * (and throw): dropped, so extras are simply not written.
 */
function withoutClosedObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutClosedObjects);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    out[key] = withoutClosedObjects(value);
  }
  return out;
}

export const serializerCompiler: FastifySerializerCompiler<ZodType> = ({ schema }) => {
  const jsonSchema = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'output',
    unrepresentable: 'any',
  });
  return fastJson(withoutClosedObjects(jsonSchema) as Parameters<typeof fastJson>[0]);
};

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

/**
 * Compiled serialisers by contract. A contract is a module-level zod object, so every app built
 * in this process (the tests build hundreds; a second instance in the same process) reuses the
 * function compiled for the first, instead of paying fast-json-stringify's code generation again
 * (about half a second for the whole API).
 */
const compiled = new WeakMap<ZodType, (data: unknown) => string>();

export const serializerCompiler: FastifySerializerCompiler<ZodType> = ({ schema }) => {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const jsonSchema = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'output',
    unrepresentable: 'any',
  });
  const serialize = fastJson(withoutClosedObjects(jsonSchema) as Parameters<typeof fastJson>[0]);
  compiled.set(schema, serialize);
  return serialize;
};

import { globalRegistry } from 'zod';
import { describe, expect, it } from 'vitest';
import { API_SCHEMAS, nameApiSchemas } from './schema-names';

describe('the names of the contract schemas in the API description', () => {
  const names = Object.keys(API_SCHEMAS);

  it('are PascalCase, one per schema, and none is another name with `Input` after it', () => {
    for (const name of names) expect(name).toMatch(/^[A-Z][A-Za-z0-9]*$/);
    expect(new Set(Object.values(API_SCHEMAS)).size).toBe(names.length);
    // The generator names a schema's request form `<name>Input`: such a name would collide.
    expect(names.filter((name) => names.includes(`${name}Input`))).toEqual([]);
  });

  it('are given in the registry the generator reads, keeping what the schema says of itself', () => {
    nameApiSchemas();
    nameApiSchemas();
    for (const [name, schema] of Object.entries(API_SCHEMAS)) {
      expect(globalRegistry.get(schema)?.id).toBe(name);
    }
    // A schema's description stays beside its name.
    const described = Object.values(API_SCHEMAS).filter((schema) => schema.description);
    for (const schema of described) {
      expect(globalRegistry.get(schema)?.description).toBe(schema.description);
    }
  });
});

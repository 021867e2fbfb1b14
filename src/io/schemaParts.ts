/**
 * The building blocks of the model file's zod schema (src/io/schema.ts, src/io/shapeSchema.ts):
 * the registry of field descriptions that the JSON Schema carries (src/io/jsonSchema.ts) and the
 * small factories every section uses, so that each use carries its own description.
 */
import * as z from 'zod';

/** metadata of schema nodes: JSON Schema `$defs` id, title, description */
export interface DocMeta { id?: string; title?: string; description?: string }
export const modelDocs = z.registry<DocMeta>();

/** attaches a description (and optionally a `$defs` id) to a schema node */
export function doc<S extends z.ZodType>(schema: S, description: string, id?: string): S {
  modelDocs.add(schema, id ? { id, description } : { description });
  return schema;
}

/** names: what CSV headers and messages can carry without quoting */
export const NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.:/-]*$/;
const NAME_RULE = 'names use letters, digits and _ . : / - and start with a letter, digit or _';

/**
 * A length check's parameters that run it only on a string or an array. zod runs length checks on
 * any value with a `length` property, even after its type check failed, and compares that value
 * with a number, which throws for an object whose valueOf and toString are not functions: JSON
 * text like `{"length": {"valueOf": 1, "toString": 1}}` would crash the validation.
 */
export const ONLY_ON_ITS_TYPE = {
  abort: false,
  when: (p: { value: unknown }) => typeof p.value === 'string' || Array.isArray(p.value),
};

// building blocks (factories, so each use can carry its own description)
export const name = (d: string) => doc(z.string().regex(NAME_PATTERN, { error: NAME_RULE }), d);
export const reference = (d: string) => doc(z.string().min(1, ONLY_ON_ITS_TYPE), d);
export const positive = (d: string) => doc(z.number().positive(), d);
export const nonNegative = (d: string) => doc(z.number().nonnegative(), d);
export const unit = (d: string) => doc(z.number().min(0).max(1), d);
export const vec3 = (d: string) => doc(z.tuple([z.number(), z.number(), z.number()]), d);
export const positive3 = (d: string) =>
  doc(z.tuple([z.number().positive(), z.number().positive(), z.number().positive()]), d);
export const quat = (d: string) => doc(z.tuple([z.number(), z.number(), z.number(), z.number()]), d);
export const flag = (d: string) => doc(z.boolean(), d);

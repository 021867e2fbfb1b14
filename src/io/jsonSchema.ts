/**
 * The JSON Schema (draft 2020-12) of the model file, generated from the zod schema so that the
 * two cannot disagree. docs/model.schema.json is this output, committed; a test checks that it
 * is up to date (`vinculum schema --out docs/model.schema.json` regenerates it). The schema
 * describes the input: fields with defaults are optional and carry their `default`. Rules that
 * span fields (inertia or shape, mass or density, references) are checked only by the loader.
 */
import * as z from 'zod';
import { ModelFileSchema, modelDocs } from './schema.js';

/** the JSON Schema of the model file, for editors and other tools (docs/model.schema.json) */
export function modelJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(ModelFileSchema, { target: 'draft-2020-12', io: 'input', metadata: modelDocs, unrepresentable: 'throw' });
  // a stable header first: $schema and title, then the generated body
  const { $schema, ...body } = generated;
  return { $schema, title: 'vinculum model file, version 1', ...body };
}

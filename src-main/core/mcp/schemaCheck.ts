import { Ajv2020 } from 'ajv/dist/2020.js';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

/**
 * Whether a tool's input schema is a JSON Schema a model provider accepts. The schema goes
 * into every model request once the tool is found, and a provider refuses the whole request
 * over one bad schema (`"type": 12`, a `$ref` to nothing), so every later turn failed too.
 *
 * The schema is checked as data against the JSON Schema meta-schemas (draft 2020-12, the
 * MCP default, and draft-07, which most SDKs still write), never compiled: compiling would
 * turn a server's text into code. `$ref`s must point inside the schema, and patterns must
 * be regular expressions; neither is something a meta-schema can say.
 */

const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';
const DRAFT_07 = 'http://json-schema.org/draft-07/schema';

let metas: { v2020: ValidateFunction; v07: ValidateFunction } | null = null;

/** The two meta-schema validators, built on first use (the app's own schemas, not a server's). */
function metaValidators(): { v2020: ValidateFunction; v07: ValidateFunction } {
  if (!metas) {
    // Formats (uri-reference, regex) are not checked by Ajv without a plug-in; patterns are checked below instead.
    const options = { strict: false, validateFormats: false, allErrors: false } as const;
    metas = { v2020: new Ajv2020(options).getSchema(DRAFT_2020)!, v07: new Ajv(options).getSchema(DRAFT_07)! };
  }
  return metas;
}

/** Where an error is, as a reader finds it in the schema: `properties.a.type`. */
const where = (pointer: string, fallback = 'the schema') =>
  pointer
    ? pointer
        .slice(1)
        .split('/')
        .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
        .join('.')
    : fallback;

function describe(errors: readonly ErrorObject[] | null | undefined): string {
  const first = errors?.[0];
  if (!first) return 'the schema';
  const allowed = (first.params as { allowedValues?: unknown[] }).allowedValues;
  const message = allowed ? `must be one of ${allowed.map(String).join(', ')}` : (first.message ?? 'is not valid');
  return `${where(first.instancePath)}: ${message}`;
}

/** The meta-schema problem, or null. A schema that names no draft passes under either one. */
function metaProblem(schema: Record<string, unknown>): string | null {
  const { v2020, v07 } = metaValidators();
  const declared = typeof schema.$schema === 'string' ? schema.$schema.replace(/#$/, '') : '';
  if (/draft-0[67]\/schema$/.test(declared)) return v07(schema) ? null : describe(v07.errors);
  if (declared === DRAFT_2020) return v2020(schema) ? null : describe(v2020.errors);
  if (v2020(schema)) return null;
  const errors = v2020.errors;
  return v07(schema) ? null : describe(errors);
}

/** Keywords whose values are data, not schemas: a `$ref` or `pattern` inside them means nothing. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'example']);
/** Keywords whose values are maps of names to schemas: their keys are names, not keywords. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);

interface Walked {
  refs: { ref: string; at: string }[];
  patterns: { pattern: string; at: string }[];
  anchors: Set<string>;
  ids: Set<string>;
}

/** The `$ref`s, patterns, anchors and ids of a schema, without recursion (depth is bounded before this runs). */
function walk(root: unknown): Walked {
  const out: Walked = { refs: [], patterns: [], anchors: new Set(), ids: new Set() };
  const stack: { node: unknown; at: string; map: boolean }[] = [{ node: root, at: '', map: false }];
  while (stack.length) {
    const { node, at, map } = stack.pop()!;
    if (!node || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      node.forEach((v, i) => stack.push({ node: v, at: `${at}/${i}`, map: false }));
      continue;
    }
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      const path = `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (map) {
        // A map's key is a name (a property may be called "$ref"); a patternProperties key is a pattern.
        stack.push({ node: value, at: path, map: false });
        continue;
      }
      if (DATA_KEYWORDS.has(key)) continue;
      if (key === '$ref' && typeof value === 'string') out.refs.push({ ref: value, at: path });
      else if (key === '$anchor' && typeof value === 'string') out.anchors.add(value);
      else if (key === '$id' && typeof value === 'string') out.ids.add(value);
      else if (key === 'pattern' && typeof value === 'string') out.patterns.push({ pattern: value, at: path });
      if (key === 'patternProperties' && value && typeof value === 'object') {
        for (const p of Object.keys(value)) out.patterns.push({ pattern: p, at: path });
      }
      stack.push({ node: value, at: path, map: SCHEMA_MAPS.has(key) });
    }
  }
  return out;
}

/** The value a `#/a/b` pointer names in the schema, or undefined. */
function resolvePointer(root: unknown, fragment: string): unknown {
  let node = root;
  for (const raw of fragment.split('/').slice(1)) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function refFound(root: Record<string, unknown>, given: string, walked: Walked): boolean {
  if (walked.ids.has(given)) return true;
  // A reference spelled out with the schema's own `$id` is a reference inside it.
  const base = typeof root.$id === 'string' ? root.$id.replace(/#$/, '') : null;
  const ref = base && given.startsWith(`${base}#`) ? given.slice(base.length) : given;
  if (!ref.startsWith('#')) return false;
  if (ref === '#') return true;
  // `#name` is an anchor (draft-07 writes it as an `$id` of "#name"); `#/...` is a pointer.
  if (!ref.startsWith('#/')) return walked.anchors.has(ref.slice(1)) || walked.ids.has(ref);
  try {
    const target = resolvePointer(root, ref.slice(1));
    return target !== undefined && (typeof target === 'boolean' || (typeof target === 'object' && target !== null));
  } catch {
    // A malformed percent escape: the pointer names nothing.
    return false;
  }
}

/** Why the input schema is not one a provider accepts, or null when it is. */
export function inputSchemaProblem(schema: Record<string, unknown>): string | null {
  const meta = metaProblem(schema);
  if (meta) return `its input schema is not valid JSON Schema (${meta})`;
  const walked = walk(schema);
  const missing = walked.refs.find((r) => !refFound(schema, r.ref, walked));
  if (missing) return `its input schema refers to "${missing.ref.slice(0, 100)}", which is not in the schema`;
  for (const { pattern, at } of walked.patterns) {
    try {
      new RegExp(pattern);
    } catch {
      return `its input schema has a pattern that is not a regular expression (${where(at)}: "${pattern.slice(0, 100)}")`;
    }
  }
  return null;
}

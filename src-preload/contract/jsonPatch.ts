import type { JsonPatchOperation } from './stream';

/**
 * RFC 6902 applied immutably, for `data-*` parts updated by patches. The wire contract
 * may import only zod (DESIGN.md: Layering rules), so this is a small dependency-free
 * implementation of the operations fast-json-patch applies; it never mutates its input:
 * only the containers along each changed path are copied, everything else is shared.
 */

export class JsonPatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPatchError';
  }
}

type Container = Record<string, unknown> | unknown[];

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new JsonPatchError(`JSON pointer "${pointer}" must start with "/"`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function isContainer(v: unknown): v is Container {
  return typeof v === 'object' && v !== null;
}

function arrayIndex(arr: unknown[], token: string, forAdd: boolean): number {
  if (forAdd && token === '-') return arr.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new JsonPatchError(`"${token}" is not an array index`);
  const i = Number(token);
  if (i > arr.length || (!forAdd && i === arr.length)) throw new JsonPatchError(`index ${i} is out of range`);
  return i;
}

function get(doc: unknown, tokens: string[]): unknown {
  let cur = doc;
  for (const t of tokens) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(cur, t, false)];
    else if (isContainer(cur) && Object.prototype.hasOwnProperty.call(cur, t)) cur = (cur as Record<string, unknown>)[t];
    else throw new JsonPatchError(`path /${tokens.join('/')} does not exist`);
  }
  return cur;
}

type Edit = (parent: Container, token: string) => Container;

/** Copies the containers from the root to the parent of the last token and edits the copy. */
function editAt(doc: unknown, tokens: string[], edit: Edit): unknown {
  const [head, ...rest] = tokens;
  if (!isContainer(doc)) throw new JsonPatchError(`cannot descend into a non-container at "${head}"`);
  if (rest.length === 0) return edit(doc, head!);
  const child = Array.isArray(doc) ? doc[arrayIndex(doc, head!, false)] : Object.prototype.hasOwnProperty.call(doc, head!) ? doc[head!] : undefined;
  if (child === undefined) throw new JsonPatchError(`path segment "${head}" does not exist`);
  const copy: Container = Array.isArray(doc) ? doc.slice() : { ...doc };
  (copy as Record<string, unknown>)[head!] = editAt(child, rest, edit);
  return copy;
}

function add(doc: unknown, tokens: string[], value: unknown): unknown {
  if (tokens.length === 0) return value;
  return editAt(doc, tokens, (parent, t) => {
    if (Array.isArray(parent)) {
      const copy = parent.slice();
      copy.splice(arrayIndex(parent, t, true), 0, value);
      return copy;
    }
    return { ...parent, [t]: value };
  });
}

function remove(doc: unknown, tokens: string[]): unknown {
  if (tokens.length === 0) throw new JsonPatchError('cannot remove the whole document');
  return editAt(doc, tokens, (parent, t) => {
    if (Array.isArray(parent)) {
      const copy = parent.slice();
      copy.splice(arrayIndex(parent, t, false), 1);
      return copy;
    }
    if (!Object.prototype.hasOwnProperty.call(parent, t)) throw new JsonPatchError(`path member "${t}" does not exist`);
    const { [t]: _removed, ...copy } = parent;
    return copy;
  });
}

/** Replaces in place in the copy, so an object keeps its key order. */
function replace(doc: unknown, tokens: string[], value: unknown): unknown {
  return editAt(doc, tokens, (parent, t) => {
    const copy: Container = Array.isArray(parent) ? parent.slice() : { ...parent };
    (copy as Record<string, unknown>)[t] = value;
    return copy;
  });
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!isContainer(a) || !isContainer(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Applies all operations, atomically: any failing operation throws and `doc` is unchanged. */
export function applyJsonPatch(doc: unknown, ops: readonly JsonPatchOperation[]): unknown {
  let cur = doc;
  for (const op of ops) {
    const path = parsePointer(op.path);
    switch (op.op) {
      case 'add':
        cur = add(cur, path, op.value);
        break;
      case 'remove':
        cur = remove(cur, path);
        break;
      case 'replace':
        get(cur, path);
        cur = path.length === 0 ? op.value : replace(cur, path, op.value);
        break;
      case 'move': {
        const from = parsePointer(op.from);
        const value = get(cur, from);
        cur = add(remove(cur, from), path, value);
        break;
      }
      case 'copy':
        cur = add(cur, path, get(cur, parsePointer(op.from)));
        break;
      case 'test':
        if (!deepEqual(get(cur, path), op.value)) throw new JsonPatchError(`test failed at ${op.path}`);
        break;
      default:
        throw new JsonPatchError(`unknown operation ${JSON.stringify((op as { op: unknown }).op)}`);
    }
  }
  return cur;
}

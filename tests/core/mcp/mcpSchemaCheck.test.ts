import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { createCore, type Core } from '../../../src-main/core/core';
import { boundTools, MCP_TOOL_LIMITS, parseListedTools } from '../../../src-main/core/mcp/toolLimits';
import { McpToolCache } from '../../../src-main/core/mcp/toolCache';

// A tool whose input schema is valid MCP but not valid JSON Schema went into every model
// request once found, and the provider refused the whole request (every later turn too).
// Such a tool is left out when the list is read, with the reason where Settings shows it.
const ADVERSARIAL = path.resolve('tests/support/mcp/adversarialServer.mjs');
const SPAWN = 120_000;

const tool = (name: string, inputSchema: Record<string, unknown>): McpTool => ({ name, description: `The ${name} tool`, inputSchema: inputSchema as McpTool['inputSchema'] });
const left = (name: string, why: string) => `MCP server "srv" tool "${name}" is left out: ${why}; only its author can fix it.`;

describe('an input schema that is not valid JSON Schema', () => {
  it.each([
    ['a property typed 12', { type: 'object', properties: { a: { type: 12 } } }, 'its input schema is not valid JSON Schema (properties.a.type: must be one of array, boolean, integer, null, number, object, string), so a model provider would refuse every request that offers it'],
    ['a misspelt type', { type: 'object', properties: { a: { type: 'strng' } } }, 'its input schema is not valid JSON Schema (properties.a.type: must be one of array, boolean, integer, null, number, object, string), so a model provider would refuse every request that offers it'],
    ['required as a string deep inside', { type: 'object', properties: { a: { type: 'object', required: 'b' } } }, 'its input schema is not valid JSON Schema (properties.a.required: must be array), so a model provider would refuse every request that offers it'],
    ['a $ref to nowhere', { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }, 'its input schema refers to "#/$defs/missing", which is not in the schema, so a model provider would refuse every request that offers it'],
    ['a $ref to another document', { type: 'object', properties: { a: { $ref: 'https://schemas.example/a.json' } } }, 'its input schema refers to "https://schemas.example/a.json", which is not in the schema, so a model provider would refuse every request that offers it'],
    ['a pattern that is not a regular expression', { type: 'object', properties: { a: { type: 'string', pattern: '[(' } } }, 'its input schema has a pattern that is not a regular expression (properties.a.pattern: "[("), so a model provider would refuse every request that offers it'],
    ['a patternProperties key that is not a regular expression', { type: 'object', patternProperties: { '(x': { type: 'string' } } }, 'its input schema has a pattern that is not a regular expression (patternProperties: "(x"), so a model provider would refuse every request that offers it'],
  ])('is left out, with the reason, when it has %s; the other tools stay', (_what, schema, why) => {
    const { tools, skipped } = boundTools('srv', [tool('plain', { type: 'object', properties: {} }), tool('bad', schema)]);
    expect(tools.map((t) => t.name)).toEqual(['plain']);
    expect(skipped).toEqual([left('bad', why)]);
  });

  it('a schema over the size or depth limit is left out too, naming the limit', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < MCP_TOOL_LIMITS.maxSchemaDepth; i++) deep = { type: 'object', properties: { n: deep } };
    const big = { type: 'object', properties: Object.fromEntries(Array.from({ length: 800 }, (_, i) => [`field_${i}`, { type: 'string', description: 'x'.repeat(20) }])) };
    const { tools, skipped } = boundTools('srv', [tool('deep', deep), tool('big', big)]);
    expect(tools).toEqual([]);
    expect(skipped[0]).toBe(left('deep', `its input schema nests more than ${MCP_TOOL_LIMITS.maxSchemaDepth} levels deep`));
    expect(skipped[1]).toMatch(/^MCP server "srv" tool "big" is left out: its input schema is [\d,]+ bytes, over the 16,384 bytes offered to a model; only its author can fix it\.$/);
  });

  it('a top-level type other than "object" is refused as not valid MCP', () => {
    const { tools, skipped } = parseListedTools('srv', [{ name: 'objekt', inputSchema: { type: 'objekt' } }]);
    expect(tools).toEqual([]);
    expect(skipped).toEqual([expect.stringMatching(/^MCP server "srv" tool "objekt" is left out: its definition is not valid MCP \(inputSchema\.type: .+\); only its author can fix it\.$/)]);
  });

  it.each([
    ['draft-07 with definitions, a local $ref and tuple items', { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', definitions: { id: { type: 'string' } }, properties: { a: { $ref: '#/definitions/id' }, pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } } }],
    ['2020-12 with $defs and a nullable type', { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', $defs: { id: { type: 'string' } }, properties: { a: { $ref: '#/$defs/id' }, b: { type: ['string', 'null'] } } }],
    ['no $schema, tuple items in the draft-07 form', { type: 'object', properties: { pair: { type: 'array', items: [{ type: 'string' }] } } }],
    ['a recursive $ref to the root and an $anchor', { type: 'object', $defs: { node: { $anchor: 'node', type: 'object', properties: { next: { $ref: '#node' } } } }, properties: { tree: { $ref: '#' }, n: { $ref: '#node' } } }],
    ['a pointer with escaped characters', { type: 'object', $defs: { 'a/b': { type: 'string' }, 'm~n': { type: 'string' } }, properties: { x: { $ref: '#/$defs/a~1b' }, y: { $ref: '#/$defs/m~0n' } } }],
    ['a "$ref" that is data in const, enum and default', { type: 'object', properties: { a: { const: { $ref: 'nowhere' } }, b: { enum: [{ $ref: '#/x' }] }, c: { type: 'object', default: { $ref: 'y' } } } }],
    ['a property named $ref', { type: 'object', properties: { $ref: { type: 'string' } } }],
    ['a valid pattern with escapes', { type: 'object', properties: { a: { type: 'string', pattern: '^[a-zA-Z0-9\\-_]+$' } }, patternProperties: { '^x-': { type: 'string' } } }],
  ])('keeps a valid schema: %s', (_what, schema) => {
    const { tools, skipped } = boundTools('srv', [tool('ok', schema)]);
    expect(skipped).toEqual([]);
    expect(tools.map((t) => t.name)).toEqual(['ok']);
  });
});

describe('a live server with such tools', () => {
  let dir: string;
  let core: Core | null = null;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-mcp-schema-'));
  });
  afterEach(async () => {
    await core?.close();
    core = null;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('only its valid tool is registered for the model; Settings and the catalogue note say why the others are missing', async () => {
    fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { js: { command: process.execPath, args: [ADVERSARIAL, 'jsonschema'] } } }));
    core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_UNATTENDED_APPROVAL: '', OPENAI4S_MCP_DISCOVER_WAIT_MS: '120000' } });
    const notes = await core.mcp.discover(Infinity);
    const view = core.mcp.status().servers[0]!;
    expect(view.state).toBe('ready');
    expect(view.tools!.map((t) => t.registeredAs)).toEqual(['mcp_js_plain']);
    expect(view.skipped.map((line) => /tool "(\w+)"/.exec(line)![1])).toEqual(['typed_twelve', 'misspelt', 'dangling', 'bad_pattern']);
    for (const name of ['typed_twelve', 'misspelt', 'dangling', 'bad_pattern']) expect(core.host.registry.get(`mcp_js_${name}`)).toBeUndefined();
    expect(notes).toEqual(['MCP server "js": 4 of its tools are left out (Settings → MCP servers says why).']);
    // The list remembered for the next start is read back through the same check.
    const cached = new McpToolCache(dir);
    cached.put('js-copy', 'k', [tool('plain', { type: 'object' }), tool('typed_twelve', { type: 'object', properties: { a: { type: 12 } } })], []);
    expect(cached.get('js-copy', 'k')!.tools.map((t) => t.name)).toEqual(['plain']);
  }, SPAWN);
});

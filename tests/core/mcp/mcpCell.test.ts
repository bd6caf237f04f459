import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../src-main/core/core';

// A real Python cell calls an MCP server's tool through host.mcp.call: the read runs
// (read-only), the destructive write is denied headless and raises HostError in the cell.
const FILESYSTEM = path.resolve('node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

let dir: string;
let folder: string;
let core: Core;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-mcp-cell-'));
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-mcp-cell-files-'));
  fs.writeFileSync(path.join(folder, 'notes.txt'), 'glucagon raises blood glucose\n');
  fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { fs: { command: process.execPath, args: [FILESYSTEM, folder] } } }));
  core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_UNATTENDED_APPROVAL: '' } });
});
afterAll(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('host.mcp.call from a Python cell', () => {
  it('reads through the server and is denied the destructive write', async () => {
    const session = core.ledger.createSession('cell');
    const notes = JSON.stringify(path.join(folder, 'notes.txt'));
    const target = JSON.stringify(path.join(folder, 'new.txt'));
    const code = [
      `r = host.mcp.call(server="fs", tool="read_text_file", arguments={"path": ${notes}})`,
      // A host call answers {text, output}: the model-facing text and the structured result.
      'print("READ:", r["output"]["text"].strip(), r["output"]["evidence_id"][:3], "UNTRUSTED_DATA" in r["text"])',
      'try:',
      `    host.mcp.call(server="fs", tool="write_file", arguments={"path": ${target}, "content": "x"})`,
      '    print("WROTE")',
      'except HostError as e:',
      '    print("DENIED:", "OPENAI4S_UNATTENDED_APPROVAL" in str(e))',
    ].join('\n');
    const cell = await core.kernels.execute(session.id, 'python', code);
    expect(cell.error).toBeFalsy();
    expect(cell.stdout).toBe('READ: glucagon raises blood glucose ev_ True\nDENIED: True\n');
    expect(fs.existsSync(path.join(folder, 'new.txt'))).toBe(false);
  }, 120_000);
});

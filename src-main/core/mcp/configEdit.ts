import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { AppError } from '../../../src-preload/contract/errors';
import type { PolicyAction } from '../capabilities/define';
import type { SettingsRepo } from '../ledger/settingsRepo';
import { errorMessage } from '../shared/errorMessage';
import { MCP_HTTP_TOKEN_KEY, MCP_POLICY_KEY, mcpConfigFile, parseServersBlock, policyOverridesSchema, readFileBlock, toStoredEntry } from './config';

/**
 * What Settings → MCP servers changes: servers are added to (or removed from) the data
 * root's mcp.json, written whole to a temporary file and renamed (a crash never leaves
 * half a file), readable by the user only (entries may carry keys); other top-level keys
 * of the file are kept. Policy overrides and the HTTP token are ledger settings.
 */

function readForEdit(file: string): Record<string, unknown> {
  const { raw, error } = readFileBlock(file);
  if (error) throw new AppError('invalid_input', `${error} Fix the file by hand before adding servers here.`);
  if (raw === null) return { mcpServers: {} };
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new AppError('invalid_input', `${file} must hold a JSON object ({"mcpServers": {...}}); fix it by hand first.`);
  return raw as Record<string, unknown>;
}

export function writeAtomically(file: string, content: Record<string, unknown>): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
}

/** Adds the servers of a pasted block; every entry is checked first, and one bad entry adds nothing. */
export function addServers(dataDir: string, json: string): string[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (error) {
    throw new AppError('invalid_input', `The pasted text is not JSON (${errorMessage(error)}). Paste a block like {"mcpServers": {"name": {"command": "...", "args": []}}}.`);
  }
  const { servers, errors } = parseServersBlock(raw);
  if (errors.length) throw new AppError('invalid_input', errors.join(' '));
  if (!servers.length) throw new AppError('invalid_input', 'The block names no server: give {"mcpServers": {"<name>": {...}}}.');
  const file = mcpConfigFile(dataDir);
  const current = readForEdit(file);
  const map = { ...((current.mcpServers as Record<string, unknown> | undefined) ?? {}) };
  for (const s of servers) map[s.name] = toStoredEntry(s);
  writeAtomically(file, { ...current, mcpServers: map });
  return servers.map((s) => s.name);
}

export function removeServer(dataDir: string, name: string): void {
  const file = mcpConfigFile(dataDir);
  const current = readForEdit(file);
  const map = { ...((current.mcpServers as Record<string, unknown> | undefined) ?? {}) };
  if (!(name in map)) throw new AppError('not_found', `No MCP server named "${name}" in ${file}.`);
  delete map[name];
  writeAtomically(file, { ...current, mcpServers: map });
}

/** Sets or clears (`null`) the override of a server or of one of its tools. */
export function setPolicyOverride(repo: SettingsRepo, server: string, tool: string | null, action: PolicyAction | null): void {
  const parsed = policyOverridesSchema.safeParse(repo.get<unknown>(MCP_POLICY_KEY) ?? {});
  const overrides = parsed.success ? parsed.data : { servers: {}, tools: {} };
  const table = tool ? overrides.tools : overrides.servers;
  const key = tool ? `${server}/${tool}` : server;
  if (action) table[key] = action;
  else delete table[key];
  repo.set(MCP_POLICY_KEY, overrides);
}

/** The token `openai4s mcp --http` requires, made on first use and kept in the ledger. */
export function httpToken(repo: SettingsRepo): string {
  const stored = repo.get<string>(MCP_HTTP_TOKEN_KEY);
  if (typeof stored === 'string' && stored) return stored;
  const token = randomBytes(24).toString('base64url');
  repo.set(MCP_HTTP_TOKEN_KEY, token);
  return token;
}

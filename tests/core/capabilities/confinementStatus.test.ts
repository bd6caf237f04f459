import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineTool, type Tool } from '../../../src-main/core/capabilities/define';
import { artifactCapabilities } from '../../../src-main/core/capabilities/tools/artifactTools';
import { fileTools } from '../../../src-main/core/capabilities/tools/fsTools';
import { globFilesTool } from '../../../src-main/core/capabilities/tools/searchTools';
import { memoryArtifacts } from '../provenance/helpers';
import { ctx, memoryDispatcher, scriptedPort } from './support';
import { tempWorkspace } from './toolSupport';

/** Every tool that takes a workspace path, with the arguments that name `p`. */
function pathCalls(p: string): [string, Record<string, unknown>][] {
  return [
    ['read_text_file', { path: p }],
    ['list_dir', { path: p }],
    ['write_file', { path: p, content: 'x' }],
    ['edit_file', { path: p, old_text: 'TOP', new_text: 'NOT' }],
    ['save_artifact', { path: p }],
  ];
}

describe('one confinement rule, one answer', () => {
  it('a path that leaves the workspace is `refused` by every tool that takes a path, save_artifact included', async () => {
    const { workspace, outside } = tempWorkspace();
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(workspace, 'link.txt'));
    const { service } = memoryArtifacts();
    const tools: Tool[] = [...fileTools, globFilesTool, defineTool(artifactCapabilities(() => service).save_artifact)];
    const { dispatcher, audit } = memoryDispatcher(scriptedPort([], 'allow_once'), tools);
    for (const escaping of ['../outside/secret.txt', path.join(outside, 'secret.txt'), 'link.txt']) {
      const calls: [string, Record<string, unknown>][] = [...pathCalls(escaping), ['glob_files', { pattern: escaping }]];
      for (const [tool, args] of calls) {
        if (tool === 'glob_files' && escaping === 'link.txt') continue; // a pattern is not opened; the walk skips symlinks
        const result = await dispatcher.dispatch(tool, args, ctx({ workspace }));
        expect({ tool, escaping, status: result.status }).toEqual({ tool, escaping, status: 'refused' });
        expect(result.text).toMatch(/^Refused (path|to write)/);
      }
    }
    expect(audit.records.every((r) => r.outcome?.status === 'refused')).toBe(true);
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET');
    expect(service.list('s1')).toEqual([]);
  });
});

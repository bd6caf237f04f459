import path from 'node:path';
import { afterAll } from 'vitest';
import type { KernelLanguage } from '../../../../src-preload/contract/kernel';
import { skillTools } from '../../../../src-main/core/capabilities/tools/skillTools';
import type { HostCallHandler } from '../../../../src-main/core/kernel/hostCalls';
import { SkillLibrary } from '../../../../src-main/core/skills/library';
import { makeSupervisor } from '../../kernel/helpers';

export const BUNDLED_SKILLS = path.resolve(__dirname, '../../../../skills');

/**
 * The bundled skills as a kernel sees them: a real sandboxed supervisor (bwrap, mode
 * enforce) whose host answers skills.* with the app's own skill tools over the bundled
 * folder, and which mounts every bundled skill read-only at /opt/openai4s/skills/<name>.
 * `json(code)` runs a cell and parses its last stdout line as JSON.
 */
export function bundledKernel() {
  const library = new SkillLibrary({ folders: () => [{ source: 'bundled', dir: BUNDLED_SKILLS }], disabled: () => new Set() });
  const tools = skillTools(() => library, () => {});
  const loaded: string[] = [];
  const host: HostCallHandler = {
    async call(method, args, ctx) {
      const tool = tools.find((t) => t.hostMethods.includes(method));
      if (!tool) throw new Error(`host method "${method}" is not served in this test`);
      const parsed = tool.parse(args);
      if (!parsed.ok) throw new Error(parsed.error);
      const out = await tool.execute(parsed.args, { sessionId: ctx.sessionId, runId: null, workspace: ctx.workspace, signal: new AbortController().signal, origin: 'cell' });
      if (method === 'skills.load') loaded.push((args as { name: string }).name);
      return { text: out.text, output: out.output };
    },
  };
  const { sup, dataDir } = makeSupervisor({ host, prewarm: [], skillDirs: () => library.enabled().map((s) => ({ name: s.name, dir: s.dir })) });
  afterAll(() => sup.close());
  let session = 0;
  const sessionId = `skills-${process.pid}-${++session}`;
  return {
    sup,
    dataDir,
    loaded,
    sessionId,
    workspace: () => sup.workspaceFor(sessionId),
    async run(code: string, language: KernelLanguage = 'python') {
      return sup.execute(sessionId, language, code);
    },
    async json<T = Record<string, unknown>>(code: string, language: KernelLanguage = 'python'): Promise<T> {
      const result = await sup.execute(sessionId, language, code);
      if (result.status !== 'ok') throw new Error(`cell failed: ${result.error?.ename}: ${result.error?.evalue}\n${result.error?.traceback ?? ''}\n${result.stderr}`);
      const last = result.stdout.trim().split('\n').at(-1) ?? '';
      return JSON.parse(last) as T;
    },
  };
}

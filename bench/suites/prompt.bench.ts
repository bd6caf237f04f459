import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { createCore } from '../../src-main/core/core';
import { buildSystemPrompt } from '../../src-main/core/engine/systemPrompt';
import { withFinalizeTool } from '../../src-main/core/engine/finalizeTool';
import type { BenchSuite } from '../types';

/**
 * The size of the first request's fixed part: system prompt plus tool schemas, counted
 * with a real BPE tokenizer (o200k_base). Target: at most 3,000 tokens (the Python
 * reference system sends about 7,300).
 */
const suite: BenchSuite = {
  name: 'prompt',
  async run() {
    // The tools the app really offers on the first request (the host's registry + finalize_response),
    // and the system prompt with the bundled skills' catalogue, as the session runner builds it.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-bench-prompt-'));
    const core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' } });
    const tools = withFinalizeTool(core.host.llmTools());
    const skills = core.skills.enabled().length;
    const system = buildSystemPrompt({ date: '2026-11-29', languages: ['python', 'r'], databases: ['uniprot', 'pdb', 'pubchem', 'chembl', 'arxiv', 'openalex', 'pubmed', 'europepmc'], skills: core.skills.listing() });
    const catalogueTokens = encode(core.skills.listing()).length;
    await core.close();
    fs.rmSync(dir, { recursive: true, force: true });
    const systemTokens = encode(system).length;
    const toolTokens = tools.reduce((n, t) => n + encode(JSON.stringify({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } })).length, 0);
    const total = systemTokens + toolTokens;
    return [
      { metric: 'system prompt', value: systemTokens, unit: 'tokens' },
      { metric: `bundled skills catalogue in the system prompt (${skills} skills)`, value: catalogueTokens, unit: 'tokens', target: '≤ 600 tokens', met: catalogueTokens <= 600 },
      { metric: `tool schemas (${tools.length} tools)`, value: toolTokens, unit: 'tokens' },
      { metric: 'first model request (system + tool schemas as the engine offers them: the host tools + finalize_response)', value: total, unit: 'tokens', target: '≤ 3,000 tokens', met: total <= 3000 },
    ];
  },
};
export default suite;

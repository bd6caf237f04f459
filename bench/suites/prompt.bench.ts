import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { finalizeTool } from '../../src-main/core/engine/finalizeTool';
import { buildSystemPrompt } from '../../src-main/core/engine/systemPrompt';
import type { BenchSuite } from '../types';

/**
 * The size of the first request's fixed part: system prompt plus tool schemas, counted
 * with a real BPE tokenizer (o200k_base). Target: at most 3,000 tokens (the Python
 * reference system sends about 7,300).
 */
const suite: BenchSuite = {
  name: 'prompt',
  async run() {
    const system = buildSystemPrompt({ date: '2026-11-29', languages: ['python', 'r'], databases: ['uniprot', 'pdb', 'pubchem', 'chembl', 'arxiv', 'openalex', 'pubmed', 'europepmc'] });
    const tools = [finalizeTool()];
    const systemTokens = encode(system).length;
    const toolTokens = tools.reduce((n, t) => n + encode(JSON.stringify({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } })).length, 0);
    const total = systemTokens + toolTokens;
    return [
      { metric: 'system prompt', value: systemTokens, unit: 'tokens' },
      { metric: `tool schemas (${tools.length} tools: ${tools.map((t) => t.name).join(', ')})`, value: toolTokens, unit: 'tokens' },
      { metric: 'first request fixed part', value: total, unit: 'tokens', target: '<= 3000', met: total <= 3000 },
    ];
  },
};
export default suite;

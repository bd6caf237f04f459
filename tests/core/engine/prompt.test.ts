import { describe, expect, it } from 'vitest';
import { finalizeTool } from '../../../src-main/core/engine/finalizeTool';
import { buildSystemPrompt } from '../../../src-main/core/engine/systemPrompt';

describe('system prompt', () => {
  const prompt = buildSystemPrompt({ date: '2026-11-29', languages: ['python', 'r'], databases: ['uniprot', 'pdb'] });

  it('has the role, the two planes, the host API, the answer contract and safety', () => {
    for (const heading of ['## How to act', '## Inside cells', '## The answer', '## Safety']) expect(prompt).toContain(heading);
    expect(prompt).toMatch(/```python or ```r/);
    expect(prompt).toMatch(/host\.science\.search/);
    expect(prompt).toMatch(/observed: .*evidence ids/);
    expect(prompt).toContain('Databases: uniprot, pdb.');
  });

  it("tells the model to answer in the user's language", () => {
    expect(prompt).toMatch(/Answer in the user's language/);
  });

  it('says when no kernel language is available', () => {
    expect(buildSystemPrompt({ date: 'd', languages: [] })).toMatch(/\(none available\)/);
  });
});

describe('finalize_response tool schema', () => {
  it('is the closed cited-answer schema as JSON Schema', () => {
    const tool = finalizeTool();
    const schema = tool.inputSchema as { type: string; required: string[]; additionalProperties: boolean; properties: Record<string, { maxItems?: number; minItems?: number }> };
    expect(tool.name).toBe('finalize_response');
    expect(schema.type).toBe('object');
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(expect.arrayContaining(['summary', 'limitations', 'completion_bullets']));
    expect(schema.properties.suggested_questions!.maxItems).toBe(5);
    expect(schema.properties.completion_bullets).toMatchObject({ minItems: 1, maxItems: 4 });
    expect(JSON.stringify(schema)).not.toContain('$schema');
  });
});

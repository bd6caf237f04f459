import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../../../src-main/core/core';
import { mentionedSkills } from '../../../src-main/core/skills/mentions';
import { startScriptedModel } from '../../support/scriptedModel';

const answer = { summary: 'Done.', claims: [], limitations: ['none'], next_steps: [], suggested_questions: [], artifacts: [], completion_bullets: ['done'] };

describe('@skill in a message', () => {
  it('names only known skills, once each, not e-mail addresses', () => {
    expect(mentionedSkills('Use @insulin-quicklook and @insulin-quicklook, mail me@insulin-quicklook or @alice.', ['insulin-quicklook'])).toEqual(['insulin-quicklook']);
    expect(mentionedSkills('(@a-b) then @c.', ['a-b', 'c'])).toEqual(['a-b', 'c']);
    // The skill folders are listed only when the message mentions something.
    let listed = 0;
    const known = () => (listed++, ['c']);
    expect(mentionedSkills('no mention here, mail me@c', known)).toEqual([]);
    expect(listed).toBe(0);
    expect(mentionedSkills('try @c', known)).toEqual(['c']);
    expect(listed).toBe(1);
  });

  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('loads the attached skill for that run: its text follows the message in the first request and the audit records its hash', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-attach-'));
    dirs.push(dir);
    const server = await startScriptedModel([{ reply: [{ toolCall: { name: 'finalize_response', arguments: answer } }] }]);
    const core = createCore({
      env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_PROVIDER: 'openai', OPENAI4S_OPENAI_BASE_URL: server.baseUrl, OPENAI4S_OPENAI_API_KEY: 'k', OPENAI4S_KERNEL_PREWARM: '0' },
    });
    try {
      const session = core.ledger.createSession('attach');
      const run = core.runner.submit({ sessionId: session.id, mutationId: 'm1', message: 'Quick look please @insulin-quicklook' });
      expect((await core.runner.result(run.id)).status).toBe('completed');
      const first = server.requests[0]!.body as { messages: { role: string; content: unknown }[] };
      const user = first.messages.filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content)).join('\n');
      expect(user).toContain('Skills attached by the user');
      expect(user).toContain('# Insulin quicklook');
      const rows = JSON.stringify(core.ledger.actions.listByRun(run.id));
      expect(rows).toContain(core.skills.load('insulin-quicklook').sha256);
    } finally {
      await core.close();
      await server.close();
    }
  });
});

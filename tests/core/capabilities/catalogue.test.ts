import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../src-main/core/core';
import type { ToolContext } from '../../../src-main/core/capabilities/define';
import { exportSession } from '../../../src-main/core/export/exportSession';
import { strFromU8, unzipSync } from 'fflate';

// The capability catalogue (issue 16, progressive disclosure) and the skill tools (issue 17),
// through the real host, dispatcher, audit and ledger.
let dir: string;
let core: Core;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-catalogue-'));
  fs.mkdirSync(path.join(dir, 'skills/pdf-tables/scripts'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'skills/pdf-tables/SKILL.md'), '---\nname: pdf-tables\ndescription: Extract tables from PDF files into CSV.\n---\n# PDF tables\nRun scripts/extract.py.\n');
  fs.writeFileSync(path.join(dir, 'skills/pdf-tables/scripts/extract.py'), 'print("tables")\n');
  core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' } });
});
afterEach(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function runContext(): ToolContext {
  const session = core.ledger.createSession('catalogue');
  const { run } = core.ledger.runs.submit(session.id, `m-${session.id}`, 'q');
  core.ledger.runs.start(run.id, 'openai', 'scripted');
  return { sessionId: session.id, runId: run.id, workspace: core.kernels.workspaceFor(session.id), signal: new AbortController().signal, origin: 'tool' };
}

const names = (runId?: string) => core.host.llmTools(runId).map((t) => t.name);

describe('the capability catalogue', () => {
  it('keeps on-demand tools out of the first request; find_tools offers them to that run only, until it ends', async () => {
    const ctx = runContext();
    const other = runContext();
    expect(names(ctx.runId!)).toContain('find_tools');
    expect(names(ctx.runId!)).toContain('load_skill');
    expect(names(ctx.runId!)).not.toContain('search_skills');
    const found = await core.host.dispatcher.dispatch('find_tools', { query: 'search skills' }, ctx);
    expect(found.status).toBe('ok');
    expect(found.text).toMatch(/^Now callable:\n- search_skills: /);
    expect(names(ctx.runId!)).toContain('search_skills');
    expect(names(other.runId!)).not.toContain('search_skills');
    core.host.endRun(ctx.runId!);
    expect(names(ctx.runId!)).not.toContain('search_skills');
    expect(core.host.sizes().disclosedRuns).toBe(0);
  });

  it('an empty query lists the whole catalogue', async () => {
    const found = await core.host.dispatcher.dispatch('find_tools', { query: '' }, runContext());
    expect((found.output as { tools: string[] }).tools).toEqual(expect.arrayContaining(['search_skills', 'read_skill_file']));
  });
});

describe('skill tools', () => {
  it('load_skill returns the text and files, records name, source and sha256, and offers read_skill_file', async () => {
    const ctx = runContext();
    const loaded = await core.host.dispatcher.dispatch('load_skill', { name: 'pdf-tables' }, ctx);
    expect(loaded.status).toBe('ok');
    expect(loaded.text).toContain('# PDF tables');
    expect(loaded.text).toContain('- scripts/extract.py');
    expect(loaded.output).toMatchObject({ skill: { name: 'pdf-tables', source: 'user', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(names(ctx.runId!)).toContain('read_skill_file');
    const file = await core.host.dispatcher.dispatch('read_skill_file', { name: 'pdf-tables', path: 'scripts/extract.py' }, ctx);
    expect(file.text).toContain('print("tables")');
    // The audit row of the load carries the hash (the run's record of what it followed).
    const actions = core.ledger.actions.listByRun(ctx.runId!);
    expect(JSON.stringify(actions)).toContain((loaded.output as { skill: { sha256: string } }).skill.sha256);
  });

  it('the export README lists the skill a run loaded, with its source and sha256', async () => {
    const ctx = runContext();
    const loaded = await core.host.dispatcher.dispatch('load_skill', { name: 'pdf-tables' }, ctx);
    const sha = (loaded.output as { skill: { sha256: string } }).skill.sha256;
    core.ledger.runs.finish(ctx.runId!, { status: 'completed' });
    const zip = path.join(dir, 'out.zip');
    exportSession(core, ctx.sessionId, zip, [], { sign: false });
    const readme = strFromU8(unzipSync(fs.readFileSync(zip))['README.md']!);
    expect(readme).toContain('## Skills used');
    expect(readme).toContain(`| \`${ctx.runId}\` | pdf-tables | user | \`${sha}\` |`);
  });

  it('a cell reaches the same through host.skills.search and host.skills.load', async () => {
    const ctx: ToolContext = { ...runContext(), origin: 'cell' };
    const hits = await core.host.dispatcher.dispatch('skills.search', { query: 'pdf' }, ctx);
    expect(hits.text).toContain('pdf-tables (user)');
    const loaded = await core.host.dispatcher.dispatch('skills.load', { name: 'pdf-tables' }, ctx);
    expect(loaded.status).toBe('ok');
  });

  it('a skill switched off in Settings leaves the catalogue of the next run', async () => {
    core.settings.update({ disabledSkills: ['pdf-tables'] });
    const ctx = runContext();
    const refused = await core.host.dispatcher.dispatch('load_skill', { name: 'pdf-tables' }, ctx);
    expect(refused.status).not.toBe('ok');
    expect(refused.text).toMatch(/No enabled skill named "pdf-tables"/);
  });
});

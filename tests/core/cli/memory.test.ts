import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliIn } from '../../support/cliInProcess';
import { openLedger } from '../../../src-main/core/ledger/ledger';
import { updatePlanStep, writePlan } from '../../../src-main/core/memory/plan';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-cli-memory-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[]) => runCliIn(dir, args);

describe('openai4s memory', () => {
  it('adds, lists (text and --json), forgets, and prints a plan; a key is refused in one line', async () => {
    const ledger = openLedger(path.join(dir, 'ledger.sqlite3'));
    const session = ledger.createSession('cli');
    const T = '2026-01-01T00:00:00.000Z';
    ledger.memory.savePlan(session.id, null, updatePlanStep(writePlan([], [{ id: 'a', title: 'Search' }, { id: 'b', title: 'Fit', parent: 'a' }], T), { id: 'a', status: 'completed' }, T).plan);
    ledger.close();

    const added = await cli(['memory', 'add', 'Plots in SI units.', '--session', session.id, '--json']);
    expect(added.code).toBe(0);
    const memory = JSON.parse(added.out) as { id: string; scope: string; origin: string };
    expect(memory).toMatchObject({ scope: 'session', origin: 'user' });
    expect((await cli(['memory', 'add', 'Answer in French.'])).code).toBe(0);

    const listed = await cli(['memory', 'list', '--session', session.id]);
    expect(listed.out).toContain(`${memory.id}  user   session       Plots in SI units.`);
    expect(listed.out).toContain('all sessions  Answer in French.');
    // Without a session: the data root's only.
    expect(JSON.parse((await cli(['memory', 'list', '--json'])).out).memories.map((m: { text: string }) => m.text)).toEqual(['Answer in French.']);

    const refused = await cli(['memory', 'add', 'token sk-proj-abcdefghijklmnopqrstuv']);
    expect(refused.code).toBe(1);
    expect(refused.err.trim().split('\n')).toHaveLength(1);
    expect(refused.err).toMatch(/^openai4s memory: .*secret.*Settings → Providers/);
    // The help says passwords are refused: one given in words is, though no key-shaped string is in it.
    for (const text of ['password: hunter2', 'the lab server password is hunter2']) {
      const password = await cli(['memory', 'add', text]);
      expect(password.code, text).toBe(1);
      expect(password.err, text).toMatch(/^openai4s memory: This memory gives a password[^\n]*\n?$/);
    }

    expect((await cli(['memory', 'forget', memory.id])).out).toBe(`Forgot ${memory.id}.\n`);
    expect((await cli(['memory', 'forget', memory.id])).err).toMatch(/No memory .*forgotten already/);
    expect((await cli(['memory', 'plan', '--session', session.id])).out).toBe('[x] a. Search\n  [ ] b. Fit\n');
    expect((await cli(['memory', 'plan'])).code).toBe(2);
    expect((await cli(['memory', 'nope'])).err).toMatch(/Unknown action "nope"/);
  });
});

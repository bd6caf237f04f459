import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../../src-preload/contract/memory';
import { openLedger, type Ledger } from '../../../src-main/core/ledger/ledger';
import { checkMemoryText, MemoryService } from '../../../src-main/core/memory/memories';
import { renderStanding } from '../../../src-main/core/archive/standingContext';
import { estimateTokens } from '../../../src-main/core/archive/tokens';
import { memoryLines, memoryPlanSections } from '../../../src-main/core/memory/standingContext';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0).reverse()) f();
});

function ledger(): Ledger {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-memory-'));
  const l = openLedger(path.join(dir, 'ledger.sqlite3'));
  cleanup.push(() => {
    l.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return l;
}

describe('memories in the ledger', () => {
  it('remember, edit and forget are appended events; the current memories are what they leave', () => {
    const l = ledger();
    const memory = new MemoryService(() => l);
    const a = l.createSession('a');
    const b = l.createSession('b');
    const own = memory.remember({ text: 'Use the human isoform P01308.', scope: 'session', sessionId: a.id, origin: 'agent' });
    const everywhere = memory.remember({ text: 'Plots in SI units.', scope: 'data_root', sessionId: a.id, origin: 'user' });
    expect(own).toMatchObject({ origin: 'agent', scope: 'session', sessionId: a.id, editedBy: null });

    // Session b sees the data root's memory only; a sees both.
    expect(memory.list(b.id).map((m) => m.id)).toEqual([everywhere.id]);
    expect(memory.list(a.id).map((m) => m.id)).toEqual([own.id, everywhere.id]);
    expect(memory.list(null).map((m) => m.id)).toEqual([everywhere.id]);
    expect(() => memory.list('no-such-session')).toThrow(/no-such-session/);

    const edited = memory.edit(own.id, 'Use the human isoform P01308 (INS_HUMAN).', 'user');
    expect(edited).toMatchObject({ text: 'Use the human isoform P01308 (INS_HUMAN).', origin: 'agent', editedBy: 'user' });
    memory.forget(own.id, 'user');
    expect(memory.list(a.id).map((m) => m.id)).toEqual([everywhere.id]);

    // Nothing was overwritten: the whole history stays, the forget included.
    expect(l.memory.history(own.id).map((e) => [e.action, e.origin])).toEqual([
      ['remember', 'agent'],
      ['edit', 'user'],
      ['forget', 'user'],
    ]);
    expect(() => l.db.prepare('DELETE FROM memory_events').run()).toThrow(/append-only/);
    expect(() => l.db.prepare("UPDATE memory_events SET text = 'x'").run()).toThrow(/append-only/);
  });

  it('an agent cannot forget a memory of another session, one already forgotten, nor the user\'s', () => {
    const l = ledger();
    const memory = new MemoryService(() => l);
    const a = l.createSession('a');
    const b = l.createSession('b');
    const m = memory.remember({ text: 'Only for a.', scope: 'session', sessionId: a.id, origin: 'agent' });
    expect(() => memory.forget(m.id, 'agent', b.id)).toThrow(/No memory/);
    memory.forget(m.id, 'agent', a.id);
    expect(() => memory.forget(m.id, 'agent', a.id)).toThrow(/forgotten already/);
    // The user's own memory is theirs to remove.
    const users = memory.remember({ text: 'Answer in French.', scope: 'data_root', sessionId: null, origin: 'user' });
    expect(() => memory.forget(users.id, 'agent', a.id)).toThrow(/is the user's, and only the user removes it/);
    memory.forget(users.id, 'user');
    const edited = memory.remember({ text: 'Use mouse data.', scope: 'session', sessionId: a.id, origin: 'agent' });
    memory.edit(edited.id, 'Use mouse and rat data.', 'user');
    expect(() => memory.forget(edited.id, 'agent', a.id)).toThrow(/is the user's/);
    expect(memory.list(a.id).map((x) => x.text)).toEqual(['Use mouse and rat data.']);
    expect(() => memory.edit(m.id, 'again', 'user')).toThrow(/No memory/);
  });

  it('refuses secrets, empty and oversized text, and a session memory without a session, with the fix', () => {
    expect(() => checkMemoryText('my OpenAI key is sk-proj-abcdefghijklmnop1234567890')).toThrow(/secret.*Settings → Providers/s);
    expect(() => checkMemoryText('api_key=9f8e7d6c5b4a39281706')).toThrow(/secret/);
    expect(() => checkMemoryText('   ')).toThrow(/needs some text/);
    expect(() => checkMemoryText('x'.repeat(1001))).toThrow(/at most 1000 characters/);
    expect(checkMemoryText('  The key for UniProt is not needed.  ')).toBe('The key for UniProt is not needed.');
    // Invisible and reordering characters: what the panel shows would not be what the model reads.
    expect(() => checkMemoryText('Use \u202eevil\u202c units')).toThrow('A memory is plain text: it holds the invisible character U+202E at position 5.');
    expect(() => checkMemoryText('nul\u0000byte')).toThrow(/U\+0000/);
    expect(() => checkMemoryText('zero\u200bwidth')).toThrow(/U\+200B/);
    expect(checkMemoryText('Two lines\n\tand a tab; 中文 and α-helix are fine.')).toBe('Two lines\n\tand a tab; 中文 and α-helix are fine.');
    const l = ledger();
    const memory = new MemoryService(() => l);
    expect(() => memory.remember({ text: 'x', scope: 'session', sessionId: null, origin: 'user' })).toThrow(/needs a session/);
    expect(() => memory.remember({ text: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', scope: 'data_root', sessionId: null, origin: 'agent' })).toThrow(/secret/);
    expect(l.db.prepare('SELECT count(*) AS n FROM memory_events').get()).toEqual({ n: 0 });
  });

  it('refuses a password given in words (is X, : X, = X, 是 X), but not a sentence that only mentions one', () => {
    for (const text of [
      'password: hunter2',
      'the lab server password is hunter2',
      'the password for the lab server is swordfish',
      'Password = swordfish',
      'passwd: abc',
      'my passphrase is "correct horse battery staple"',
      'The VPN password was Tr0ub4dor&3',
      '服务器密码：hunter2',
      '密码是 abc123',
    ]) {
      expect(() => checkMemoryText(text), text).toThrow(/^This memory gives a password, and passwords are never stored as memories: .*Remember where it is kept instead/);
    }
    for (const text of [
      'reset your password in the portal',
      'the lab server password is in the team vault',
      'The password is the same as for the wiki.',
      'password is not set yet',
      'passwords are rotated monthly',
      'password-protected PDFs are in data/',
      'Ask Jane for the password.',
      '忘记密码请联系管理员',
      '密码是必需的',
    ]) {
      expect(checkMemoryText(text), text).toBe(text);
    }
    const l = ledger();
    const memory = new MemoryService(() => l);
    expect(() => memory.remember({ text: 'the lab server password is hunter2', scope: 'data_root', sessionId: null, origin: 'user' })).toThrow(/gives a password/);
    expect(l.db.prepare('SELECT count(*) AS n FROM memory_events').get()).toEqual({ n: 0 });
  });
});

describe('standing context', () => {
  const mem = (i: number, text: string, over: Partial<MemoryRecord> = {}): MemoryRecord => ({
    id: `mem_${String(i).padStart(16, '0')}`,
    text,
    scope: 'session',
    sessionId: 's',
    origin: 'agent',
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    updatedAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    editedBy: null,
    ...over,
  });

  it('lists memories newest first with their ids and origin, within the token cap, counting what is left out', () => {
    const memories = Array.from({ length: 200 }, (_, i) => mem(i, `Fact number ${i}: the assay buffer is PBS at pH 7.4 and 37 degrees.`));
    memories[199] = mem(199, 'Answer in French.', { origin: 'user', scope: 'data_root' });
    const text = memoryLines(memories, 300);
    expect(estimateTokens(text)).toBeLessThanOrEqual(300 + 20);
    const lines = text.split('\n').filter((l) => l.startsWith('- '));
    expect(lines[0]).toBe(`- ${memories[199]!.id} (user, all sessions): Answer in French.`);
    expect(lines[1]).toContain('Fact number 198');
    expect(text).toMatch(new RegExp(`\\(${200 - lines.length} older memories do not fit here\\.\\)`));
    expect(memoryLines([])).toBe('');
  });

  it('joins memory and plan, and is empty when there is neither', () => {
    // Rendered as the context policy renders the standing context of every request.
    const standing = (...args: Parameters<typeof memoryPlanSections>) => renderStanding(memoryPlanSections(...args), { method: 'estimate', count: estimateTokens });
    expect(standing([], [])).toBe('');
    const text = standing([mem(1, 'Use mouse data.')], [{ id: 'plan-1', title: 'Search', status: 'in_progress', kind: 'plan' }]);
    expect(text).toContain('## Memory');
    expect(text).toContain('## Your plan\n[>] 1. Search');
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliIn } from '../../support/cliInProcess';

// Listing commands print for people by default and JSON with --json; `help <command>` is
// `<command> --help`; arguments a command does not take are refused, not ignored.

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-cli-listings-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[]) => runCliIn(dir, args);

describe('CLI listings and help', () => {
  it('help <command> prints that command’s usage; an unknown one is refused on one line', async () => {
    const asked = await cli(['help', 'run']);
    const flag = await cli(['run', '--help']);
    expect(asked.code).toBe(0);
    expect(asked.out).toBe(flag.out);
    expect(asked.out).toMatch(/^Ask a research question headlessly/);
    const unknown = await cli(['help', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe('Unknown command "nope". Run openai4s --help for the list of commands.\n');
  });

  it('kernel status says each language’s kernel in words, JSON with --json, and refuses extra arguments', async () => {
    const text = await cli(['kernel', 'status']);
    expect(text.code).toBe(0);
    expect(text.out.split('\n').slice(0, 3)).toEqual(['session cli', 'python   no kernel', 'r        no kernel']);
    const json = await cli(['kernel', 'status', '--json']);
    expect(JSON.parse(json.out)).toMatchObject({ sessionId: 'cli', slots: [{ language: 'python', state: 'none' }, { language: 'r', state: 'none' }] });
    const extra = await cli(['kernel', 'status', 'python']);
    expect(extra.code).toBe(2);
    expect(extra.err).toBe('openai4s kernel: status takes no arguments (got "python"). See openai4s kernel --help.\n');
  });

  it('science list prints one database a line, JSON with --json', async () => {
    const text = await cli(['science', 'list']);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^uniprot +UniProt \(search, entry, fasta\)$/m);
    const json = JSON.parse((await cli(['science', 'list', '--json'])).out) as { database: string; operations: string[] }[];
    expect(json.find((c) => c.database === 'pdb')?.operations).toContain('download');
    expect(text.out.trim().split('\n')).toHaveLength(json.length);
  });

  it('sessions and doctor refuse an argument they do not take', async () => {
    for (const name of ['sessions', 'doctor']) {
      const r = await cli([name, 'extra']);
      expect(r.code, name).toBe(2);
      expect(r.err, name).toBe(`openai4s ${name}: ${name} takes no arguments (got "extra"). See openai4s ${name} --help.\n`);
      expect(r.out, name).toBe('');
    }
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fold } from '../../../src-preload/contract/fold';
import type { DataChunk, StreamChunk } from '../../../src-preload/contract/stream';
import { runCli } from '../../../src-main/cli/main';
import { openLedger } from '../../../src-main/core/ledger/ledger';
import { startScriptedModel, type ScriptedModel } from '../../support/scriptedModel';
import { readWithAiSdk, validateDataParts } from '../contract/uiStreamSupport';

/**
 * Issue 14, item 1: what `openai4s run --stream ui` prints is the AI SDK UI message
 * stream, readable whole by the `ai` package at every moment, even when a cell streams
 * its output (internally: data-cell patches), and it ends as the same message our own
 * fold makes of the run's stored chunks.
 */

let dir: string;
let server: ScriptedModel;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-uistream-'));
});
afterEach(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// 200 pieces on each stream, written with pauses so the kernel streams them in many flushes.
const CELL = [
  '```python',
  'import sys, time',
  'import matplotlib',
  "matplotlib.use('Agg')",
  'import matplotlib.pyplot as plt',
  'for i in range(200):',
  "    print(f'out {i}', flush=True)",
  "    print(f'err {i}', file=sys.stderr, flush=True)",
  '    time.sleep(0.004)',
  'fig, ax = plt.subplots()',
  'ax.plot([1, 2, 3], [1, 4, 9])',
  "ax.set_title('squares')",
  'plt.show()',
  '```',
].join('\n');

/** The evidence id the host told the model for the cell (it is cited in the answer). */
function cellEvidenceId(body: unknown): string {
  const text = JSON.stringify(body);
  const match = /Evidence id of this cell: (ev_[a-z2-7]{16})/.exec(text);
  if (!match) throw new Error('the cell result sent to the model names no evidence id');
  return match[1]!;
}

describe('openai4s run --stream ui', () => {
  it('prints a stream the ai package reads whole, with schema-valid data parts, ending as our fold of the stored run', async () => {
    server = await startScriptedModel([
      // A tool batch: a read-only call, and a fetch that needs approval (headless: denied).
      {
        reply: [
          { text: 'Looking around first.' },
          { toolCall: { name: 'list_dir', arguments: { path: '.' } } },
          { toolCall: { name: 'web_fetch', arguments: { url: 'http://127.0.0.1:9/page', reason: 'read the page' } } },
        ],
      },
      // A cell streaming 200 pieces to stdout and to stderr, and drawing a figure.
      { reply: [{ text: `Now the computation.\n${CELL}\n` }] },
      // The cited answer, citing the cell's evidence.
      (body) => ({
        reply: [
          {
            toolCall: {
              name: 'finalize_response',
              arguments: {
                summary: 'The squares were computed and plotted.',
                claims: [{ statement: 'The cell plotted 1, 4, 9.', basis: 'computed', evidence: [cellEvidenceId(body)], uncertainty: 'none' }],
                limitations: ['A toy computation.'],
                completion_bullets: ['Plotted the squares'],
              },
            },
          },
        ],
      }),
    ]);

    let stdout = '';
    let stderr = '';
    const code = await runCli(
      ['run', 'Plot the squares', '--provider', 'openai', '--stream', 'ui'],
      { out: (t) => (stdout += `${t}\n`), err: (t) => (stderr += `${t}\n`), write: (t) => (stdout += t) },
      {
        ...process.env,
        OPENAI4S_DATA_DIR: dir,
        OPENAI4S_OPENAI_BASE_URL: server.baseUrl,
        OPENAI4S_OPENAI_API_KEY: 'sk-test-ui-stream',
        OPENAI4S_KERNEL_PREWARM: '0',
        OPENAI4S_UNATTENDED_APPROVAL: '',
      },
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.endsWith('data: [DONE]\n\n')).toBe(true);

    // Read whole by the ai package: its chunk schema and readUIMessageStream, no error.
    const { message, errors, chunks } = await readWithAiSdk(stdout);
    expect(errors).toEqual([]);
    expect(message).toBeDefined();

    // Every data chunk on the wire is the protocol's own {type, id, data}, valid by our map.
    const wireData = chunks.filter((c) => c.type.startsWith('data-')) as { type: string; id?: string }[];
    for (const c of wireData) {
      expect(Object.keys(c).sort().filter((k) => k !== 'transient')).toEqual(c.id === undefined ? ['data', 'type'] : ['data', 'id', 'type']);
    }
    expect(validateDataParts(message!.parts)).toEqual([]);

    // The stored run, as the app keeps it (patches and all), folded by our own fold.
    const ledger = openLedger(path.join(dir, 'ledger.sqlite3'));
    let stored: StreamChunk[];
    try {
      const [session] = ledger.sessions.list();
      stored = ledger.events.readFrom(session!.id).map((e) => e.chunk);
    } finally {
      ledger.close();
    }
    // The run really exercised each case (otherwise this test would prove little).
    const patches = stored.filter((c) => c.type === 'data-cell' && (c as DataChunk).patch);
    expect(patches.length).toBeGreaterThan(1);
    const types = new Set(message!.parts.map((p) => p.type));
    for (const t of ['tool-list_dir', 'tool-web_fetch', 'data-approval', 'data-cell', 'data-artifact', 'data-evidence', 'data-answer']) expect(types).toContain(t);
    const approval = message!.parts.find((p) => p.type === 'data-approval') as { data: { state: string } };
    expect(approval.data.state).toBe('denied');
    const cell = message!.parts.find((p) => p.type === 'data-cell') as { data: { stdout: string; stderr: string; status: string } };
    expect(cell.data.status).toBe('ok');
    expect(cell.data.stdout.split('\n').filter(Boolean)).toHaveLength(200);
    expect(cell.data.stderr.split('\n').filter(Boolean)).toHaveLength(200);
    expect(message!.parts.find((p) => p.type === 'data-answer')).toMatchObject({ data: { cited: true } });
    // Every part the app stored validates too, not only the wire's.
    const folded = fold(stored);
    expect(validateDataParts(folded.at(-1)!.parts)).toEqual([]);

    // The same message: what any AI SDK client builds is what the app shows and keeps.
    expect(JSON.parse(JSON.stringify(message))).toEqual(JSON.parse(JSON.stringify(folded.at(-1))));
  }, 120_000);
});

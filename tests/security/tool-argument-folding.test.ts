/**
 * Issue 13, item 10: quadratic tool-argument folding. A model streams tool arguments in
 * pieces of a few characters. Re-parsing the whole text on every piece made a 1 MiB
 * argument take minutes to fold, and one ledger row per piece wrote 917k rows for a
 * 5 MB + 9 MB run. Here: the fold of a 5 MB argument does a linear amount of JSON parsing
 * (counted by wrapping JSON.parse, no clock) and ends exactly at the argument; the runner
 * stores an argument in a bounded number of rows; an argument over the cap is refused with
 * a clear error, to the model and in the run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fold } from '../../src-preload/contract/fold';
import type { StreamChunk } from '../../src-preload/contract/stream';
import { MAX_TOOL_ARGUMENT_BYTES } from '../../src-main/core/engine/toolArgumentCap';
import { openLedger, type Ledger } from '../../src-main/core/ledger/ledger';
import type { Part } from '../../src-main/core/llm/types';
import { SessionRunner } from '../../src-main/core/runner/sessionRunner';
import { COALESCE_MAX_CHARS, COALESCE_MAX_DELAY_MS, ToolInputCoalescer } from '../../src-main/core/runner/toolInputCoalescer';
import { RecordingMockModel, finish, toolCall, validAnswer } from '../support/mockModel';
import { LiveRuns } from '../../src-main/core/engine/liveRuns';

const PIECE = 13;
const REFUSAL = `tool arguments over ${MAX_TOOL_ARGUMENT_BYTES} bytes were refused; write large content to a file in a cell instead`;

/** A write_file argument of about `bytes` bytes, with quotes, backslashes and newlines to escape. */
function bigArgument(bytes: number): { value: { path: string; content: string }; raw: string } {
  const line = 'row 42\t"quoted" and \\back\\slashed, ünïcödé\n';
  const value = { path: 'big.txt', content: line.repeat(Math.ceil(bytes / line.length)) };
  return { value, raw: JSON.stringify(value) };
}

function pieces(raw: string, size = PIECE): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += size) out.push(raw.slice(i, i + size));
  return out;
}

/** Counts what JSON.parse is asked to read while `work` runs. */
function countingParses<T>(work: () => T): { result: T; calls: number; chars: number } {
  const real = JSON.parse;
  let calls = 0;
  let chars = 0;
  const spy = vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    calls++;
    chars += text.length;
    return real(text, reviver);
  });
  try {
    return { result: work(), calls, chars };
  } finally {
    spy.mockRestore();
  }
}

let dir: string;
let ledger: Ledger;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-toolargs-'));
  ledger = openLedger(path.join(dir, 'ledger.sqlite3'));
});
afterEach(() => {
  ledger.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function toolPartOf(chunksOrMessages: ReturnType<typeof fold>): Record<string, unknown> {
  const part = chunksOrMessages.at(-1)!.parts.find((p) => 'toolCallId' in p);
  return part as unknown as Record<string, unknown>;
}

describe('tool argument folding', () => {
  it('folds a 5 MB argument streamed in 13-character pieces with linear parsing, ending exactly at the argument', () => {
    const { value, raw } = bigArgument(5_000_000);
    const chunks: StreamChunk[] = [
      { type: 'start', messageId: 'a1' },
      { type: 'start-step' },
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'write_file' },
      ...pieces(raw).map((d): StreamChunk => ({ type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: d })),
    ];
    const deltas = chunks.length - 3;
    expect(deltas).toBeGreaterThan(380_000);

    const { result: messages, calls, chars } = countingParses(() => fold(chunks));
    const part = toolPartOf(messages);
    // No tool-input-available: the view comes from the streamed text alone, and is exact.
    expect(part.input).toEqual(value);
    expect(part.rawInput).toBe(raw);
    // Linear: a constant number of passes over the text, not one per piece (that was ~10^12 characters).
    expect(chars).toBeLessThan(50 * raw.length);
    expect(calls).toBeLessThan(5_000);
    expect(calls).toBeLessThan(deltas / 50);
  });

  it('the runner stores a 5 MB argument in a bounded number of ledger rows, and its history folds to the argument', () => {
    const { value, raw } = bigArgument(5_000_000);
    const session = ledger.createSession('big argument');
    const { run } = ledger.runs.submit(session.id, 'm1', 'write a big file');
    ledger.runs.start(run.id, 'mock', 'mock-1');
    // The runner's own write path: every chunk of a run passes through its coalescer.
    const coalescer = new ToolInputCoalescer((s, r, chunk) => ledger.events.appendSync(s, r, chunk));
    const write = (chunk: StreamChunk) => coalescer.push(session.id, run.id, chunk);
    write({ type: 'start', messageId: run.id });
    write({ type: 'start-step' });
    write({ type: 'tool-input-start', toolCallId: 'c1', toolName: 'write_file' });
    for (const d of pieces(raw)) write({ type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: d });
    write({ type: 'finish-step' });

    const rows = ledger.events.readRun(session.id, run.id);
    const deltaRows = rows.filter((r) => r.chunk.type === 'tool-input-delta');
    expect(deltaRows.length).toBeLessThanOrEqual(Math.ceil(raw.length / COALESCE_MAX_CHARS) + 1);
    expect(rows.length).toBeLessThan(100);
    expect(toolPartOf(ledger.history(session.id).messages).input).toEqual(value);
  });

  it('a run streaming an argument just under the cap writes it in a bounded number of rows', async () => {
    // The sample line has multi-byte characters: 800k characters stay under 1 MiB of UTF-8.
    const { value, raw } = bigArgument(800_000);
    expect(Buffer.byteLength(raw)).toBeLessThan(MAX_TOOL_ARGUMENT_BYTES);
    const model = new RecordingMockModel([
      [
        { type: 'tool-call-start', id: 'c1', name: 'write_file' },
        ...pieces(raw).map((delta): Part => ({ type: 'tool-call-delta', id: 'c1', delta })),
        { type: 'tool-call-end', id: 'c1', name: 'write_file', rawArguments: raw, arguments: value, parseError: null, complete: true },
        finish('tool-calls'),
      ],
      [...toolCall('f', 'finalize_response', validAnswer), finish()],
    ]);
    const session = ledger.createSession('under the cap');
    const r = runnerWith(model);
    const started = performance.now();
    const done = await r.result(r.submit({ sessionId: session.id, mutationId: 'm1', message: 'write it' }).id);
    const streamMs = performance.now() - started;
    expect(done.status).toBe('completed');
    const rows = ledger.events.readRun(session.id, done.id).filter((e) => e.chunk.type === 'tool-input-delta');
    // One row per 64 KiB of the big call, plus the finalize_response call's one, plus one
    // per 50 ms the stream took (COALESCE_MAX_DELAY_MS flushes a slow stream's held text):
    // on a loaded machine that is a few more, never one per piece.
    expect(rows.length).toBeLessThanOrEqual(Math.ceil(raw.length / COALESCE_MAX_CHARS) + 2 + Math.ceil(streamMs / COALESCE_MAX_DELAY_MS));
    expect(rows.length).toBeLessThan(pieces(raw).length / 10);
    const ofCall = rows.map((e) => e.chunk as { toolCallId: string; inputTextDelta: string }).filter((c) => c.toolCallId === 'c1');
    expect(ofCall.map((c) => c.inputTextDelta).join('')).toBe(raw);
  });

  it('refuses an argument over the cap as it streams: a clear error to the model and in the run, and nothing more stored', async () => {
    const { raw } = bigArgument(2 * MAX_TOOL_ARGUMENT_BYTES);
    const model = new RecordingMockModel([
      [
        { type: 'tool-call-start', id: 'c1', name: 'write_file' },
        ...pieces(raw, 4096).map((delta): Part => ({ type: 'tool-call-delta', id: 'c1', delta })),
        { type: 'tool-call-end', id: 'c1', name: 'write_file', rawArguments: raw, arguments: JSON.parse(raw), parseError: null, complete: true },
        finish('tool-calls'),
      ],
      [...toolCall('f', 'finalize_response', validAnswer), finish()],
    ]);
    const session = ledger.createSession('over the cap');
    const executed: string[] = [];
    const r = runnerWith(model, executed);
    const done = await r.result(r.submit({ sessionId: session.id, mutationId: 'm1', message: 'write it' }).id);
    expect(done.status).toBe('completed');
    expect(executed).toEqual([]);

    // In the run: the call ends in an error naming the limit and the fix.
    const stored = ledger.events.readRun(session.id, done.id).map((e) => e.chunk);
    const refusal = stored.find((c) => c.type === 'tool-input-error');
    expect(refusal).toMatchObject({ toolCallId: 'c1', errorText: `write_file: ${REFUSAL}` });
    const streamed = stored.filter((c) => c.type === 'tool-input-delta').map((c) => (c as { inputTextDelta: string }).inputTextDelta).join('');
    expect(Buffer.byteLength(streamed)).toBeLessThanOrEqual(MAX_TOOL_ARGUMENT_BYTES);
    expect(stored.length).toBeLessThan(100);
    const part = ledger.history(session.id).messages.find((m) => m.role === 'assistant')!.parts.find((p) => 'toolCallId' in p && p.toolCallId === 'c1');
    expect(part).toMatchObject({ state: 'output-error', errorText: expect.stringContaining(REFUSAL) });

    // To the model: the call was not executed, and why; its history keeps only a short preview.
    const next = model.requests[1]!.messages;
    const answer = next.find((m) => m.role === 'tool' && m.toolCallId === 'c1');
    expect(answer).toMatchObject({ isError: true, content: `Not executed: write_file: ${REFUSAL}.` });
    const assistant = next.find((m) => m.role === 'assistant' && m.toolCalls?.length);
    expect(assistant!.role === 'assistant' && assistant!.toolCalls![0]!.rawArguments.length).toBeLessThan(1_000);
  });
});

function runnerWith(model: RecordingMockModel, executed: string[] = []): SessionRunner {
  return new SessionRunner({
    ledger,
    createModel: () => model,
    executor: {
      executeBatch: async (calls) => {
        executed.push(...calls.map((c) => c.name));
        return calls.map((c) => ({ toolCallId: c.id, toolName: c.name, isError: false, content: 'written' }));
      },
    },
    kernel: { executeCell: async () => ({ ok: false, summary: 'no kernels in this test' }) },
    evidenceFor: () => ({ missing: (ids) => [...ids] }),
    tools: () => [],
    systemPrompt: () => 'system',
    liveRuns: new LiveRuns(),
    publish: () => {},
  });
}

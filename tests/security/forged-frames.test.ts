import { afterAll, describe, expect, it } from 'vitest';
import { decodeFrame } from '../../src-main/core/kernel/frames';
import { makeSupervisor } from '../core/kernel/helpers';

// Attack: a cell writes protocol frames to fd 3 itself (the worker's own descriptor is
// open in the cell's process). Before frames were validated, a display frame with
// `data: null` or a number for `image/png` threw a TypeError in the host's fd 3 reader,
// an uncaught exception that ended the whole app and left the run `processing`.

const hostCalls: string[] = [];
const { sup } = makeSupervisor({
  host: {
    call(method) {
      hostCalls.push(method);
      if (method === 'echo') return { echoed: true };
      throw new Error(`no method ${method}`);
    },
  },
});
afterAll(() => sup.close());

/** Python that writes `frames` (JSON texts, "CELL" replaced by the running cell's id) through the worker's own writer. */
function forgingCell(frames: string[]): string {
  return [
    'import sys, json',
    'W = sys.modules["openai4s_worker"]',
    'CID = W._state["cell"]',
    `for text in json.loads(${JSON.stringify(JSON.stringify(frames))}):`,
    '    W._send_line(text.replace("CELL", CID).encode() + b"\\n")',
    'print("still running")',
  ].join('\n');
}

const ATTACKS: Record<string, string> = {
  'display without an id': '{"type":"display","data":{"text/plain":"x"}}',
  'display with data null': '{"type":"display","id":"CELL","data":null}',
  'display with a number for image/png': '{"type":"display","id":"CELL","data":{"image/png":5}}',
  'display with an object for image/png': '{"type":"display","id":"CELL","data":{"image/png":{"a":1}}}',
  'display with data an array': '{"type":"display","id":"CELL","data":["x"]}',
  'result with an empty error': '{"type":"result","id":"CELL","ok":false,"error":{}}',
  'result with usage null fields': '{"type":"result","id":"CELL","ok":true,"usage":{"wall_ms":null,"cpu_ms":"x"}}',
  'result with ok a string': '{"type":"result","id":"CELL","ok":"yes"}',
  'host_call with args a string': '{"type":"host_call","id":900001,"cell":"CELL","method":"echo","args":"x"}',
  'host_call without a method': '{"type":"host_call","id":900002,"cell":"CELL","args":{}}',
  'host_call with an id object': '{"type":"host_call","id":{"x":1},"method":"echo","args":{}}',
  'ready with a string pid': '{"type":"ready","pid":"1","language":"python","version":"3"}',
  'an unknown type': '{"type":"explode","id":"CELL"}',
  'a JSON array': '[{"type":"display"}]',
  'JSON null': 'null',
  'not JSON at all': '{"type":"display","id":',
};

describe('forged protocol frames from a cell', () => {
  it.each(Object.entries(ATTACKS))('%s: dropped with a reason, the host and the kernel live on', async (_name, frame) => {
    const before = await sup.execute('forged', 'python', 'marker = 41');
    const r = await sup.execute('forged', 'python', forgingCell([frame]));
    expect(r.status).toBe('ok');
    expect(r.stdout).toBe('still running\n');
    expect(r.stderr).toMatch(/\[dropped an invalid frame from the kernel: .+\]/);
    // Same generation: the kernel was not restarted, its variables are still there.
    expect(r.generation).toBe(before.generation);
    const after = await sup.execute('forged', 'python', 'print(marker + 1)');
    expect(after.status).toBe('ok');
    expect(after.stdout).toBe('42\n');
  });

  it('answers a malformed host call with an error instead of running it or leaving it unanswered', async () => {
    hostCalls.length = 0;
    const r = await sup.execute('forged', 'python', forgingCell(['{"type":"host_call","id":900003,"cell":"CELL","method":"echo","args":[1,2]}']));
    expect(r.status).toBe('ok');
    expect(hostCalls).toEqual([]);
    expect(r.stderr).toContain('host_call frame, args');
  });

  it('says how many frames were dropped when there are several', async () => {
    const r = await sup.execute('forged', 'python', forgingCell([ATTACKS['display with data null']!, ATTACKS['not JSON at all']!, ATTACKS['an unknown type']!]));
    expect(r.stderr).toContain('(and 2 more)');
  });

  it('keeps the frames the real worker writes (a genuine display, an error with no line)', async () => {
    const r = await sup.execute('forged', 'python', '[1, 2]');
    expect(r.displays[0]!.data['text/plain']).toBe('[1, 2]');
    expect(r.stderr).toBe('');
    const e = await sup.execute('forged', 'python', 'raise ValueError("boom")');
    expect(e.error).toMatchObject({ ename: 'ValueError', evalue: 'boom' });
  });

  it('decodeFrame names what is wrong and never throws', () => {
    expect(decodeFrame(Buffer.from(ATTACKS['display with data null']!))).toMatchObject({ ok: false, reason: expect.stringContaining('display frame') });
    expect(decodeFrame(Buffer.from(ATTACKS['display with a number for image/png']!))).toMatchObject({ ok: false, reason: expect.stringContaining('image/png') });
    expect(decodeFrame(Buffer.from(ATTACKS['host_call with args a string']!))).toMatchObject({ ok: false, hostCallId: 900001 });
    expect(decodeFrame(Buffer.from([0xff, 0xfe, 0x00]))).toMatchObject({ ok: false });
  });
});

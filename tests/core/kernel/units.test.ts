import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OutputBudget, capText, prefixWithin, worstCaseBytes } from '../../../src-main/core/kernel/outputBudget';
import { StreamCapture } from '../../../src-main/core/kernel/streamCapture';
import { LineSplitter } from '../../../src-main/core/kernel/frames';
import { bwrapArgs, decideSandbox, kernelEnv, seatbeltProfile } from '../../../src-main/core/kernel/sandbox';

describe('output budget (JSON-escaped UTF-8 worst case)', () => {
  it('never undercounts any escaping: JSON.stringify and \\u-escaping both fit', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const worst = worstCaseBytes(s);
        expect(Buffer.byteLength(JSON.stringify(s).slice(1, -1), 'utf8')).toBeLessThanOrEqual(worst);
        const asciiEscaped = JSON.stringify(s).slice(1, -1).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
        expect(asciiEscaped.length).toBeLessThanOrEqual(worst);
      }),
    );
  });

  it('cuts Chinese and emoji on a code point boundary, within the cap', () => {
    const text = '基因组学😀'.repeat(50);
    const cut = prefixWithin(text, 100);
    expect(cut.cost).toBeLessThanOrEqual(100);
    expect(worstCaseBytes(cut.text)).toBe(cut.cost);
    expect(cut.text).toBe(Array.from(cut.text).join('')); // no lone surrogate
    expect(/[\ud800-\udbff]$/.test(cut.text)).toBe(false);
  });

  it('keeps what fits, counts the rest, and says so', () => {
    const b = new OutputBudget(10);
    expect(b.take('abcdef')).toBe('abcdef');
    expect(b.take('ghijkl')).toBe('ghij');
    expect(b.take('more')).toBe('');
    expect(b.truncated).toBe(true);
    expect(b.dropped).toBe(6);
    expect(b.note()).toMatch(/output truncated: the cell wrote 6 B more than the 10 B output limit/);
    expect(capText('x'.repeat(100), 40)).toMatch(/^x+\n\[\.\.\. cut at 40 B\]$/);
  });
});

describe('stream capture', () => {
  it('finds the end marker split across reads and passes the text before it', () => {
    const cap = new StreamCapture();
    const got: string[] = [];
    let done = 0;
    cap.begin('m-123', (t) => got.push(t), () => done++);
    const whole = Buffer.from('hello 世界\u0001m-123\u0001after');
    for (let i = 0; i < whole.length; i++) cap.push(whole.subarray(i, i + 1)); // byte by byte, splitting UTF-8 too
    expect(got.join('')).toBe('hello 世界');
    expect(done).toBe(1);
    const next: string[] = [];
    cap.begin('m-456', (t) => next.push(t), () => {});
    expect(next.join('')).toBe('after'); // between-cells text goes to the next cell
  });
});

describe('frame splitter', () => {
  it('splits lines and refuses an endless one', () => {
    const lines: string[] = [];
    const overflow: number[] = [];
    const s = new LineSplitter((l) => lines.push(l.toString()), (n) => overflow.push(n), 16);
    s.push(Buffer.from('{"a":1}\n{"b"'));
    s.push(Buffer.from(':2}\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    s.push(Buffer.from('x'.repeat(40)));
    expect(overflow).toEqual([40]);
  });
});

describe('sandbox configuration', () => {
  it('rebuilds the environment from an allowlist: no keys, tokens, secrets, Electron or NODE_OPTIONS', () => {
    const env = kernelEnv(
      {
        OPENAI4S_ARK_API_KEY: 'k',
        GITHUB_TOKEN: 't',
        MY_SECRET: 's',
        DB_PASSWORD: 'p',
        ELECTRON_RUN_AS_NODE: '1',
        NODE_OPTIONS: '--inspect',
        LANG: 'zh_CN.UTF-8',
        LC_ALL: 'C.UTF-8',
        TZ: 'Asia/Shanghai',
        PATH: '/evil',
      },
      { home: '/tmp/home', tmp: '/tmp', mplConfig: '/tmp/mpl', xdgCache: '/tmp/cache' },
      { SOME_API_KEY: 'x' },
    );
    expect(Object.keys(env).filter((k) => /KEY|TOKEN|SECRET|PASSWORD|^ELECTRON_|^NODE_OPTIONS$/i.test(k))).toEqual([]);
    expect(env.LANG).toBe('zh_CN.UTF-8');
    expect(env.TZ).toBe('Asia/Shanghai');
    expect(env.PATH).toBe('/usr/local/bin:/usr/bin:/bin');
  });

  it('bwrap: read-only system, writable workspace, no network, own pids, dies with the parent', () => {
    const cache = { dir: '/data/kernel-cache-ro/python-x', mplFiles: ['fontlist-v330.json'], xdgDirs: ['fontconfig'] };
    const args = bwrapArgs({ workspace: '/data/ws/s1', workersDir: '/app/kernel-workers', cache, interpreter: '/usr/bin/python3' });
    const joined = args.join(' ');
    expect(joined).toContain('--ro-bind /usr /usr');
    expect(joined).toContain('--ro-bind /etc /etc');
    expect(joined).toContain('--bind /data/ws/s1 /workspace');
    // The shared cache only ever read-only, inside the generation's private /tmp.
    expect(joined).toContain('--ro-bind /data/kernel-cache-ro/python-x /cache');
    expect(joined).toContain('--ro-bind /data/kernel-cache-ro/python-x/fontconfig /tmp/cache/fontconfig');
    expect(args.filter((a, i) => a.includes('kernel-cache') && args[i - 1] !== '--ro-bind')).toEqual([]);
    expect(args.indexOf('--tmpfs')).toBeLessThan(args.indexOf('/tmp/cache/fontconfig'));
    expect(joined).toContain('--remount-ro /');
    for (const flag of ['--unshare-all', '--die-with-parent', '--new-session']) expect(args).toContain(flag);
    expect(args.at(-1)).toBe('--');
  });

  it('Seatbelt profile: deny by default, no network, writes only to the workspace and its own temp folder, quoted paths', () => {
    const p = seatbeltProfile({ workspace: '/Users/a "q"/ws', workersDir: '/App/workers', tmpDir: '/t', interpreterPrefix: '/opt/homebrew' });
    expect(p.startsWith('(version 1)\n(deny default)')).toBe(true);
    expect(p).toContain('(deny network*)');
    expect(p).not.toMatch(/allow network/);
    const writeLine = p.split('\n').find((l) => l.includes('file-write*'))!;
    expect(writeLine).toContain('(subpath "/Users/a \\"q\\"/ws")');
    expect(writeLine).toContain('(subpath "/t")');
    expect(writeLine).not.toContain('/opt/homebrew');
    // Other processes are out of reach; only the sandbox's own may be inspected.
    expect(p).toContain('(allow process-info* (target same-sandbox))');
    expect(p).not.toMatch(/\(allow process-info\*\s*\)|target others/);
    // Protected names at the workspace root: a later deny wins over the workspace write.
    const deny = p.split('\n').find((l) => l.startsWith('(deny file-write*'))!;
    expect(p.indexOf(deny)).toBeGreaterThan(p.indexOf(writeLine));
    expect(deny).toContain('(subpath "/Users/a \\"q\\"/ws/.git")');
    expect(deny).toContain('(literal "/Users/a \\"q\\"/ws/.env")');
    expect(deny).toContain('(literal "/Users/a \\"q\\"/ws/.mcp.json")');
  });

  it('modes: auto degrades visibly, enforce refuses, off is off', () => {
    const missing = { backend: 'none' as const, available: false, mode: 'auto' as const, reason: 'bubblewrap (bwrap) is not installed' };
    expect(decideSandbox('auto', missing, 'linux')).toEqual({ state: { state: 'degraded', reason: 'bubblewrap (bwrap) is not installed' } });
    // The probe's case goes with the state (the window says it in its language); a report without a reason is "no backend here".
    expect(decideSandbox('auto', { ...missing, gap: 'bwrap_missing' }, 'linux').state).toEqual({ state: 'degraded', reason: 'bubblewrap (bwrap) is not installed', gap: 'bwrap_missing' });
    expect(decideSandbox('auto', { backend: 'bwrap', available: true, mode: 'auto' }, 'freebsd').state).toEqual({
      state: 'degraded',
      reason: 'no sandbox backend for freebsd',
      gap: 'no_backend',
      detail: 'freebsd',
    });
    expect(decideSandbox('enforce', missing, 'linux').refuse).toMatch(/OPENAI4S_SANDBOX=enforce.*bubblewrap.*OPENAI4S_SANDBOX=auto/);
    expect(decideSandbox('off', missing, 'linux').state).toEqual({ state: 'off' });
    const ok = { backend: 'bwrap' as const, available: true, mode: 'auto' as const, path: '/usr/bin/bwrap' };
    expect(decideSandbox('auto', ok, 'linux')).toEqual({ state: { state: 'sandboxed', backend: 'bwrap' }, bwrap: '/usr/bin/bwrap' });
  });
});

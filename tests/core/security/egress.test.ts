import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EgressFailedError, EgressRefusedError, guardedFetch } from '../../../src-main/core/security/egress';
import { allowPorts, loopback } from './loopback';

async function refusal(p: Promise<unknown>): Promise<EgressRefusedError> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EgressRefusedError);
  return error as EgressRefusedError;
}

describe('egress guard: every SSRF spelling is refused from the parsed address', () => {
  it('loopback in all its spellings never reaches a listening loopback server', async () => {
    const srv = await loopback((_req, res) => res.end('secret'));
    const p = srv.port;
    const spellings = [
      `http://127.0.0.1:${p}/`,
      `http://0x7f000001:${p}/`,
      `http://0177.0.0.1:${p}/`,
      `http://127.1:${p}/`,
      `http://2130706433:${p}/`,
      `http://0x7f.0.0.1:${p}/`,
      `http://[::ffff:7f00:1]:${p}/`,
      `http://[::ffff:127.0.0.1]:${p}/`,
      `http://[::1]:${p}/`,
      `http://localhost:${p}/`,
      `http://LOCALHOST.:${p}/`,
      `https://127.0.0.1:${p}/`,
    ];
    for (const url of spellings) {
      const e = await refusal(guardedFetch(url, { timeoutMs: 2_000 }));
      expect(e.reason, url).toMatch(/loopback/);
    }
    expect(srv.hits).toHaveLength(0);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', /link-local/],
    ['http://[fe80::1]/', /link-local/],
    ['http://10.0.0.1/', /private/],
    ['http://172.16.5.4/', /private/],
    ['http://192.168.0.1/', /private/],
    ['http://100.64.0.1/', /carrier-grade NAT/],
    ['http://224.0.0.251/', /multicast/],
    ['http://[ff02::1]/', /multicast/],
    ['http://0.0.0.0/', /unspecified/],
    ['http://0/', /unspecified/],
    ['http://[::]/', /unspecified/],
    ['http://[fd00::1]/', /unique-local/],
    ['http://255.255.255.255/', /broadcast/],
    ['http://[::ffff:a9fe:a9fe]/', /link-local/],
    ['http://[::ffff:7f00:1]:9/', /loopback/],
  ])('%s is refused', async (url, why) => {
    const e = await refusal(guardedFetch(url, { timeoutMs: 2_000 }));
    expect(e.reason).toMatch(why);
    expect(e.message).toMatch(/^Refused to fetch/);
  });

  it('only http and https', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.org/x', 'gopher://127.0.0.1:70/', 'data:text/plain,hi']) {
      expect((await refusal(guardedFetch(url))).reason).toMatch(/scheme .* not allowed/);
    }
    expect((await refusal(guardedFetch('not a url'))).reason).toMatch(/valid absolute URL/);
  });

  it('a host name is resolved once and every answer checked: one private answer refuses it', async () => {
    let calls = 0;
    const e = await refusal(
      guardedFetch('http://mixed.test/', {
        resolve: async () => {
          calls++;
          return [
            { address: '93.184.216.34', family: 4 },
            { address: '10.0.0.7', family: 4 },
          ];
        },
      }),
    );
    expect(e.reason).toMatch(/10\.0\.0\.7 is a private-network address.*\(mixed\.test resolves to it\)/);
    expect(calls).toBe(1);
  });
});

describe('egress guard: connections, redirects, caps', () => {
  it('pins the socket to the validated address: DNS is asked once, the Host header keeps the name', async () => {
    const srv = await loopback((_req, res) => res.end('pinned ok'));
    let calls = 0;
    const answers = [
      [{ address: '127.0.0.1', family: 4 as const }],
      [{ address: '10.9.9.9', family: 4 as const }], // what a rebinding resolver would say next
    ];
    const res = await guardedFetch(`http://pinned.test:${srv.port}/page`, {
      resolve: async () => answers[Math.min(calls++, 1)]!,
      allowAddress: allowPorts(srv.port),
    });
    expect(res.body.toString()).toBe('pinned ok');
    expect(res.address).toBe('127.0.0.1');
    expect(calls).toBe(1);
    expect(srv.hits[0]!.headers.host).toBe(`pinned.test:${srv.port}`);
  });

  it('a redirect to a private address is refused before any connection to it', async () => {
    const inner = await loopback((_req, res) => res.end('internal'));
    const outer = await loopback((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${inner.port}/admin` });
      res.end();
    });
    const e = await refusal(guardedFetch(`${outer.origin}/start`, { allowAddress: allowPorts(outer.port) }));
    expect(e.reason).toMatch(new RegExp(`redirects to http://127\\.0\\.0\\.1:${inner.port}/admin, which is refused: .*loopback`));
    expect(inner.hits).toHaveLength(0);

    const meta = await loopback((_req, res) => {
      res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
    });
    expect((await refusal(guardedFetch(meta.origin, { allowAddress: allowPorts(meta.port) }))).reason).toMatch(/link-local/);
  });

  it('follows at most 5 redirects', async () => {
    const srv = await loopback((req, res) => {
      const n = Number((req.url ?? '/0').slice(1));
      res.writeHead(302, { location: `/${n + 1}` });
      res.end();
    });
    const e = await refusal(guardedFetch(`${srv.origin}/0`, { allowAddress: allowPorts(srv.port) }));
    expect(e.reason).toMatch(/more than 5 redirects/);
    expect(srv.hits).toHaveLength(6);

    const ok = await loopback((req, res) => {
      const n = Number((req.url ?? '/0').slice(1));
      if (n < 5) {
        res.writeHead(307, { location: `/${n + 1}` });
        res.end();
      } else res.end(`arrived after ${n}`);
    });
    const res = await guardedFetch(`${ok.origin}/0`, { allowAddress: allowPorts(ok.port) });
    expect(res.body.toString()).toBe('arrived after 5');
    expect(res.redirects).toHaveLength(5);
  });

  it('credentials go to their own origin only: stripped on a cross-origin redirect, kept on a same-origin one', async () => {
    const other = await loopback((_req, res) => res.end('other'));
    const first = await loopback((req, res) => {
      if (req.url === '/same') {
        res.writeHead(302, { location: '/landing' });
        res.end();
      } else if (req.url === '/cross') {
        res.writeHead(302, { location: `http://other.test:${other.port}/x` });
        res.end();
      } else res.end('landed');
    });
    const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const allowAddress = allowPorts(first.port, other.port);
    const url = `http://alice:s3cret@127.0.0.1:${first.port}`;
    const same = await guardedFetch(`${url}/same`, { allowAddress, headers: { Cookie: 'sid=1' } });
    expect(same.url).toBe(`${first.origin}/landing`);
    expect(first.hits[1]!.headers.authorization).toBe(`Basic ${Buffer.from('alice:s3cret').toString('base64')}`);
    expect(first.hits[1]!.headers.cookie).toBe('sid=1');

    await guardedFetch(`${url}/cross`, { allowAddress, resolve, headers: { Cookie: 'sid=1' } });
    expect(first.hits[2]!.headers.authorization).toBeDefined();
    expect(other.hits).toHaveLength(1);
    expect(other.hits[0]!.headers.authorization).toBeUndefined();
    expect(other.hits[0]!.headers.cookie).toBeUndefined();
  });

  it('caps the body size (after decompression) and says it was cut', async () => {
    const big = Buffer.alloc(1024 * 1024, 'a');
    const srv = await loopback((req, res) => {
      if (req.url === '/gz') {
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' });
        res.end(zlib.gzipSync(big));
      } else res.end(big);
    });
    const plain = await guardedFetch(srv.origin, { allowAddress: allowPorts(srv.port), maxBytes: 10_000 });
    expect(plain.body.length).toBe(10_000);
    expect(plain.truncated).toBe(true);
    const gz = await guardedFetch(`${srv.origin}/gz`, { allowAddress: allowPorts(srv.port), maxBytes: 5_000 });
    expect(gz.body.toString()).toBe('a'.repeat(5_000));
    expect(gz.truncated).toBe(true);
  });

  it('bounds the time of a server that never answers', async () => {
    const srv = await loopback(() => {
      /* never answers */
    });
    const started = Date.now();
    const error = await guardedFetch(srv.origin, { allowAddress: allowPorts(srv.port), timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EgressFailedError);
    expect((error as Error).message).toMatch(/no complete answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../src-main/electron/origin';
import { serveRendererFile } from '../../src-main/electron/protocol';

// A built-renderer folder with a secret next to it: a traversal bug would serve the secret.
let root: string;
let rendererDir: string;
const INDEX = '<!doctype html><title>OpenAI4S</title><div id="root"></div>';

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'openai4s-protocol-'));
  rendererDir = path.join(root, 'renderer');
  fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(rendererDir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(rendererDir, 'assets', 'index-abc.js'), 'console.log("app")');
  fs.writeFileSync(path.join(rendererDir, 'assets', 'index-abc.css'), 'body{margin:0}');
  fs.writeFileSync(path.join(rendererDir, 'assets', 'blob.bin'), Buffer.from([0, 1, 2]));
  fs.writeFileSync(path.join(root, 'package.json'), '{"secret": "outside the renderer"}');
  fs.mkdirSync(path.join(root, 'renderer-evil'));
  fs.writeFileSync(
    path.join(root, 'renderer-evil', 'x.txt'),
    'sibling folder with a shared prefix',
  );
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('serveRendererFile', () => {
  it.each(['app://openai4s/index.html', 'app://openai4s/', 'app://openai4s/index.html?x=1#top'])(
    'serves index.html for %s with the CSP and the HTML content type',
    async (url) => {
      const response = await serveRendererFile(rendererDir, url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await response.text()).toBe(INDEX);
    },
  );

  it('serves assets with their content types', async () => {
    const js = await serveRendererFile(rendererDir, 'app://openai4s/assets/index-abc.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe('console.log("app")');
    const css = await serveRendererFile(rendererDir, 'app://openai4s/assets/index-abc.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const bin = await serveRendererFile(rendererDir, 'app://openai4s/assets/blob.bin');
    expect(bin.headers.get('content-type')).toBe('application/octet-stream');
  });

  it('keeps the CSP strict: own origin only, no eval, no remote scripts, no framing', () => {
    const directives = new Map(
      CONTENT_SECURITY_POLICY.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name!, values] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|https?:|\*/);
  });

  it.each([
    'app://openai4s/../package.json',
    'app://openai4s/%2e%2e%2fpackage.json',
    'app://openai4s/%2E%2E%2Fpackage.json',
    'app://openai4s/..%2fpackage.json',
    'app://openai4s/assets/%2e%2e%2f%2e%2e%2fpackage.json',
    'app://openai4s/%2e%2e/package.json',
    'app://openai4s/%2e%2e%2frenderer-evil%2fx.txt',
    'app://openai4s/%2fetc%2fpasswd',
  ])('refuses path traversal: %s', async (url) => {
    const response = await serveRendererFile(rendererDir, url);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('outside the renderer');
  });

  it.each([
    'app://other/index.html',
    'app://openai4s.evil.example/index.html',
    'https://openai4s/index.html',
    'file:///index.html',
  ])('refuses another host or scheme: %s', async (url) => {
    expect((await serveRendererFile(rendererDir, url)).status).toBe(404);
  });

  it('answers 404 for a missing file, a folder and a NUL byte', async () => {
    expect((await serveRendererFile(rendererDir, 'app://openai4s/missing.js')).status).toBe(404);
    expect((await serveRendererFile(rendererDir, 'app://openai4s/assets')).status).toBe(404);
    expect((await serveRendererFile(rendererDir, 'app://openai4s/index.html%00.js')).status).toBe(
      404,
    );
  });

  it('answers 400, never throws, for a malformed URL or percent-encoding', async () => {
    expect((await serveRendererFile(rendererDir, 'not a url')).status).toBe(400);
    await expect(serveRendererFile(rendererDir, 'app://openai4s/%E0%A4%A')).resolves.toHaveProperty(
      'status',
      400,
    );
  });
});

import fs from 'node:fs/promises';
import path from 'node:path';
import { APP_HOST, APP_SCHEME, CONTENT_SECURITY_POLICY } from './origin';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/**
 * Answers an `app://openai4s/...` request from the built renderer folder. Paths are
 * resolved and confined to that folder; anything else is a 404. Every response
 * carries the CSP.
 */
export async function serveRendererFile(rendererDir: string, requestUrl: string): Promise<Response> {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return new Response('bad request', { status: 400 });
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) {
    return new Response('not found', { status: 404 });
  }
  let relative: string;
  try {
    relative = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
  } catch {
    // Malformed percent-encoding (e.g. `%E0%A4%A`): a bad request, not a crash of the handler.
    return new Response('bad request', { status: 400 });
  }
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, `.${relative}`);
  if (file !== root && !file.startsWith(root + path.sep)) {
    return new Response('not found', { status: 404 });
  }
  try {
    const body = await fs.readFile(file);
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'x-content-type-options': 'nosniff',
      },
    });
  } catch {
    return new Response('not found', { status: 404 });
  }
}

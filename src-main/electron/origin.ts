/** The custom scheme and host the renderer is served from (never file://). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'openai4s';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** Strict CSP for every renderer response: our origin only, no eval, no remote content. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** True only for a URL of our own origin (parsed, not prefix-matched). */
export function isAppUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST;
  } catch {
    // An unparseable URL is not ours.
    return false;
  }
}

/** http(s) links may go to the OS browser, after a URL-parser check; nothing else may. */
export function externalUrlOrNull(raw: string): string | null {
  try {
    const url = new URL(raw);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && url.hostname && !url.username && !url.password) {
      return url.toString();
    }
  } catch {
    // not a URL
  }
  return null;
}

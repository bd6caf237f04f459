import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';

/**
 * fetch for the Streamable HTTP client transport, with the stdio transport's message cap.
 * The SDK reads a JSON answer whole and an event stream line by line without a limit, so a
 * server (or whatever answers at its url) could grow the app's memory without end. A JSON
 * answer over the cap, or an event over it (bytes since the last blank line of an event
 * stream, which may itself stay open for hours), ends that response with McpTooLarge.
 */

export const MCP_MESSAGE_LIMIT = STDIO_DEFAULT_MAX_BUFFER_SIZE;
const TOO_LARGE = 'MCP message over the size cap';

export class McpTooLarge extends Error {
  constructor(limit: number) {
    super(`${TOO_LARGE}: the server sent more than ${limit.toLocaleString('en-US')} bytes in one message`);
    this.name = 'McpTooLarge';
  }
}

/** Whether an error (as the SDK passes it on, possibly re-wrapped) is the cap's. */
export const isTooLarge = (message: string): boolean => message.includes(TOO_LARGE);

/** Index just after the last blank line (LF LF) in the chunk, or -1. */
function afterLastEventEnd(chunk: Uint8Array): number {
  for (let i = chunk.length - 1; i > 0; i--) if (chunk[i] === 10 && (chunk[i - 1] === 10 || (chunk[i - 1] === 13 && i > 1 && chunk[i - 2] === 10))) return i + 1;
  return -1;
}

export function boundedFetch(limit = MCP_MESSAGE_LIMIT, inner: FetchLike = (url, init) => fetch(url, init)): FetchLike {
  return async (url, init) => {
    const res = await inner(url, init);
    // Statuses without a body cannot carry one on a new Response either.
    if (!res.body || [101, 204, 205, 304].includes(res.status)) return res;
    const stream = (res.headers.get('content-type') ?? '').includes('text/event-stream');
    let run = 0;
    const guard = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const end = stream ? afterLastEventEnd(chunk) : -1;
        run = end >= 0 ? chunk.length - end : run + chunk.length;
        if (run > limit) controller.error(new McpTooLarge(limit));
        else controller.enqueue(chunk);
      },
    });
    return new Response(res.body.pipeThrough(guard), { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

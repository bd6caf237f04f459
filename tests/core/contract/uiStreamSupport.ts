import { parseJsonEventStream } from '@ai-sdk/provider-utils';
import { readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from 'ai';
import { dataPartName, dataPartSchemas } from '../../../src-preload/contract/dataParts';

/**
 * Reads an SSE body exactly as an AI SDK client does: the `ai` package's own chunk schema
 * (through `parseJsonEventStream`), then `readUIMessageStream`. Every chunk the schema
 * refuses and every error the reader reports is collected.
 */
export async function readWithAiSdk(sse: string): Promise<{ message: UIMessage | undefined; errors: unknown[]; chunks: UIMessageChunk[] }> {
  const bytes = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode(sse));
      c.close();
    },
  });
  const errors: unknown[] = [];
  const chunks: UIMessageChunk[] = [];
  const stream = parseJsonEventStream({ stream: bytes, schema: uiMessageChunkSchema() as never }).pipeThrough(
    new TransformStream<{ success: boolean; value?: unknown; error?: unknown }, UIMessageChunk>({
      transform(result, controller) {
        if (!result.success) {
          errors.push(result.error);
          return;
        }
        chunks.push(result.value as UIMessageChunk);
        controller.enqueue(result.value as UIMessageChunk);
      },
    }),
  );
  let message: UIMessage | undefined;
  for await (const m of readUIMessageStream({ stream, onError: (e) => errors.push(e) })) message = m;
  return { message, errors, chunks };
}

/** Every `data-*` part must be one of the map's and its data valid by its schema: the problems, by part. */
export function validateDataParts(parts: readonly { type: string; data?: unknown }[]): string[] {
  const problems: string[] = [];
  parts.forEach((part, i) => {
    if (!part.type.startsWith('data-')) return;
    const name = dataPartName(part.type);
    if (!name) {
      problems.push(`part ${i}: ${part.type} is not in the map of data parts`);
      return;
    }
    const check = dataPartSchemas[name].safeParse(part.data);
    if (!check.success) problems.push(`part ${i} (${part.type}): ${check.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`);
  });
  return problems;
}

import { createHash } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** JSON with object keys sorted at every level: the same arguments always hash the same. */
export function canonicalJson(value: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])])) : v;
  return JSON.stringify(canonical(value ?? null));
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * What a tool result says, as text: text items as they are, structured content as JSON
 * when there is no text, and a one-line stand-in for binary items (an image's bytes are
 * no use to the model as base64; the cell caller gets the full result).
 */
export function resultToText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const item of result.content ?? []) {
    switch (item.type) {
      case 'text':
        parts.push(item.text);
        break;
      case 'image':
      case 'audio':
        parts.push(`[${item.type}: ${item.mimeType}, ${Math.floor((item.data.length * 3) / 4).toLocaleString('en-US')} bytes, not shown]`);
        break;
      case 'resource': {
        const r = item.resource;
        parts.push('text' in r && typeof r.text === 'string' ? `[resource ${r.uri}]\n${r.text}` : `[resource ${r.uri}: binary, not shown]`);
        break;
      }
      case 'resource_link':
        parts.push(`[link: ${item.name} ${item.uri}]`);
        break;
      default:
        parts.push(`[${(item as { type: string }).type} content, not shown]`);
    }
  }
  if (result.structuredContent !== undefined && !parts.some((p) => p.trim())) parts.push(JSON.stringify(result.structuredContent, null, 2));
  return parts.join('\n').trim() || '(the tool returned no content)';
}

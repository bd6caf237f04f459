import type { RunRecord, SessionDetail } from '../../../src-preload/contract/sessions';
import type { UIMessage, UIPart } from '../../../src-preload/contract/stream';
import type { CliCommand } from '../command';
import { stripTerminalControls } from '../terminalText';
import { sessionArgProblem, usageError } from '../sessionArg';

export const showCommand: CliCommand = {
  name: 'show',
  summary: 'Show one session: its runs and its conversation, folded from the ledger',
  usage: 'openai4s show <sessionId> [--json]',
  options: { json: { type: 'boolean' } },
  needsCore: true,
  async run({ core, values, positionals, io }) {
    const problem = sessionArgProblem('show', positionals);
    if (problem) return usageError(io, 'show')(problem);
    const sessionId = positionals[0]!;
    const detail = core!.ledger.detail(sessionId);
    const { messages } = core!.ledger.history(sessionId);
    // Child agents' runs (issue 20), each naming the run that started it.
    const childRuns = core!.ledger.runs.listChildren(sessionId);
    if (values.json) {
      io.out(JSON.stringify({ ...detail, childRuns, messages }, null, 2));
      return 0;
    }
    // Titles, replies, tool errors and cell output are untrusted: no terminal controls.
    io.out(stripTerminalControls(formatShow(detail, messages, childRuns)));
    return 0;
  },
};

function formatPart(p: UIPart): string | null {
  switch (p.type) {
    case 'text':
      return p.text;
    case 'reasoning':
      return `(thinking) ${p.text}`;
    case 'step-start':
      return null;
    case 'source-url':
      return `[source] ${p.title ?? p.url} <${p.url}>`;
    case 'source-document':
      return `[source] ${p.title}`;
    case 'file':
      return `[file] ${p.filename ?? p.url} (${p.mediaType})`;
    default:
      if ('toolCallId' in p) {
        const name = p.type === 'dynamic-tool' ? p.toolName : p.type.slice('tool-'.length);
        const tail = p.state === 'output-error' ? `: ${p.errorText ?? ''}` : '';
        return `[tool ${name} ${p.state}]${tail}`;
      }
      return `[${p.type}] ${JSON.stringify(p.data)}`;
  }
}

export function formatShow(detail: SessionDetail, messages: UIMessage[], childRuns: readonly RunRecord[] = []): string {
  const { session, runs } = detail;
  const lines = [`${session.title}  (${session.id}, revision ${session.revision}, ${detail.lastSeq} events)`, `created ${session.createdAt}, updated ${session.updatedAt}`, ''];
  lines.push(`runs (${runs.length}${childRuns.length ? `, and ${childRuns.length} child agent runs` : ''})`);
  const runLine = (r: RunRecord, indent: string) => {
    const failure = r.failureCode ? ` ${r.failureCode}${r.failureMessage ? `: ${r.failureMessage}` : ''}` : '';
    const task = r.parentRunId ? `  child: ${r.message.split('\n')[0]!.slice(0, 80)}` : '';
    lines.push(`${indent}${r.id}  ${r.status}${failure}  ${r.provider ?? ''}${r.model ? `/${r.model}` : ''}${task}`);
    // Each child agent's run under the run that started it.
    for (const c of childRuns) if (c.parentRunId === r.id) runLine(c, `${indent}  `);
  };
  for (const r of runs) runLine(r, '  ');
  lines.push('');
  for (const m of messages) {
    lines.push(`${m.role}:`);
    for (const p of m.parts) {
      const text = formatPart(p);
      if (text !== null) lines.push(`  ${text.replace(/\n/g, '\n  ')}`);
    }
  }
  return lines.join('\n');
}

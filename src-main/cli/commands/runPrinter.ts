import type { CitedAnswer } from '../../../src-preload/contract/answer';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import type { CliIO } from '../command';
import { stripTerminalControls as untrusted } from '../terminalText';

/**
 * Prints a run readably as its chunks arrive: text as it streams, reasoning dimmed
 * (on a terminal), tool activity and cells as one-line notes, and the final cited
 * answer with its claims and evidence. Everything from the model, tools and cells is
 * stripped of terminal controls first; our own dimming is added after. A cited answer's
 * sources (source-url / source-document parts) follow it, one line each.
 */
export function textPrinter(write: (text: string) => void, tty: boolean) {
  const dim = (s: string) => (tty ? `\x1b[2m${s}\x1b[22m` : s);
  let mode: 'none' | 'text' | 'reasoning' = 'none';
  const tools = new Map<string, string>();
  let sources = 0;
  const breakLine = () => {
    if (mode !== 'none') write('\n');
    mode = 'none';
  };
  const note = (s: string) => {
    breakLine();
    write(`${dim(`· ${untrusted(s)}`)}\n`);
  };
  return (chunk: StreamChunk): void => {
    switch (chunk.type) {
      case 'text-delta':
        if (mode !== 'text') breakLine();
        mode = 'text';
        write(untrusted(chunk.delta));
        break;
      case 'reasoning-delta':
        if (mode !== 'reasoning') breakLine();
        mode = 'reasoning';
        write(dim(untrusted(chunk.delta)));
        break;
      case 'tool-input-start':
        tools.set(chunk.toolCallId, chunk.toolName);
        break;
      case 'tool-input-available':
        if (chunk.toolName !== 'finalize_response') note(`${chunk.toolName} ${JSON.stringify(chunk.input).slice(0, 160)}`);
        break;
      case 'tool-input-error':
        note(`${chunk.toolName}: ${chunk.errorText}`);
        break;
      case 'tool-output-error':
        note(`${tools.get(chunk.toolCallId) ?? 'tool'} failed: ${chunk.errorText.split('\n')[0]!.slice(0, 200)}`);
        break;
      case 'tool-output-denied':
        note(`${tools.get(chunk.toolCallId) ?? 'tool'} denied`);
        break;
      case 'tool-output-available':
        // A preliminary output (a tool streaming its answer) is not the end of the call.
        if (!chunk.preliminary && tools.get(chunk.toolCallId) !== 'finalize_response') note(`${tools.get(chunk.toolCallId) ?? 'tool'} done`);
        break;
      case 'source-url':
        if (!sources++) write('Sources:\n');
        write(`  [${untrusted(chunk.sourceId)}] ${untrusted(chunk.title ?? '')} <${untrusted(chunk.url)}>\n`);
        break;
      case 'source-document':
        if (!sources++) write('Sources:\n');
        write(`  [${untrusted(chunk.sourceId)}] ${untrusted(chunk.title)}${chunk.filename ? ` (${untrusted(chunk.filename)})` : ''}\n`);
        break;
      case 'data-cell': {
        const data = chunk.data as { language?: string; status?: string; stdout?: string; error?: { ename: string; evalue: string } | null } | undefined;
        if (!data || data.status === 'running') {
          if (data) note(`running a ${data.language} cell`);
          break;
        }
        note(`${data.language} cell ${data.status}${data.error ? `: ${data.error.ename}: ${data.error.evalue}` : ''}`);
        if (data.stdout) {
          const out = untrusted(data.stdout);
          write(dim(out.endsWith('\n') ? out : `${out}\n`));
        }
        break;
      }
      case 'data-answer':
        breakLine();
        write(untrusted(formatAnswer(chunk.data as CitedAnswer)));
        break;
      case 'error':
        note(`error: ${chunk.errorText}`);
        break;
      default:
        break;
    }
  };
}

export function formatAnswer(answer: CitedAnswer): string {
  const lines: string[] = ['', '── Answer ──', answer.summary.trim(), ''];
  if (answer.claims.length) {
    lines.push('Claims:');
    for (const c of answer.claims) {
      const ev = c.evidence.length ? ` [${c.evidence.join(', ')}]` : '';
      lines.push(`  (${c.basis}) ${c.statement}${ev}${c.uncertainty ? `  — ${c.uncertainty}` : ''}`);
    }
  }
  if (answer.limitations.length) lines.push('Limitations:', ...answer.limitations.map((l) => `  - ${l}`));
  if (answer.next_steps.length) lines.push('Next steps:', ...answer.next_steps.map((l) => `  - ${l}`));
  if (answer.suggested_questions.length) lines.push('You could ask:', ...answer.suggested_questions.map((l) => `  ? ${l}`));
  return `${lines.join('\n')}\n`;
}

export function ioWriter(io: CliIO): (text: string) => void {
  return io.write ?? ((text: string) => io.out(text.replace(/\n$/, '')));
}

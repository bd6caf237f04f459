import { randomUUID } from 'node:crypto';
import { isAssistantChunk } from '../../../src-preload/contract/fold';
import { MAX_MESSAGE_CHARS, MESSAGE_TOO_LONG } from '../../../src-preload/contract/runs';
import { protocolSink } from '../../core/engine/protocolSink';
import { resolveForModel } from '../../core/llm/model';
import { errorMessage } from '../../core/shared/errorMessage';
import { SSE_DONE, sseEvent } from '../../core/engine/sse';
import type { CliCommand } from '../command';
import { onStdoutClosed } from '../stdioGuard';
import { ioWriter, textPrinter } from './runPrinter';

const EXIT: Record<string, number> = { completed: 0, failed: 1, cancelled: 130, expired: 1, unavailable: 1 };
/** Signals that cancel the run: Ctrl-C, and what `kill`, systemd and container runtimes send. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export const runCommand: CliCommand = {
  name: 'run',
  summary: 'Ask a research question headlessly and stream the agent run',
  usage:
    'openai4s run "<question>" [--provider ID] [--model M] [--session ID] [--title T] [--stream ui|text] [--max-turns N]\n' +
    '  --stream ui prints the AI SDK UI message stream as SSE (data: <json>), ending with data: [DONE].',
  options: {
    provider: { type: 'string' },
    model: { type: 'string' },
    session: { type: 'string' },
    stream: { type: 'string' },
    'max-turns': { type: 'string' },
    title: { type: 'string' },
  },
  needsCore: true,
  async run({ core, values, positionals, io }) {
    const question = positionals.join(' ').trim();
    if (!question) {
      io.err('Give a question: openai4s run "<question>"');
      return 2;
    }
    // The same limit as the app's composer (the run.submit route), checked before anything is stored.
    if (question.length > MAX_MESSAGE_CHARS) {
      io.err(`The question is too long: ${MESSAGE_TOO_LONG} (it has ${question.length.toLocaleString('en-US')}). Shorten it, or put the material in a file in the session workspace and ask about the file.`);
      return 2;
    }
    const mode = (values.stream as string | undefined) ?? 'text';
    if (mode !== 'ui' && mode !== 'text') {
      io.err(`--stream must be ui or text, not "${mode}"`);
      return 2;
    }
    const maxTurns = values['max-turns'] === undefined ? undefined : Number(values['max-turns']);
    if (maxTurns !== undefined && (!Number.isInteger(maxTurns) || maxTurns < 1 || maxTurns > 200)) {
      io.err('--max-turns must be a whole number from 1 to 200');
      return 2;
    }
    const c = core!;
    // A provider that cannot be used (unknown, no key) is said before anything is stored: a
    // run that cannot start left an empty session, or a failed run in the one named.
    try {
      const provider = (values.provider as string | undefined) ?? c.providers.defaultProviderId();
      resolveForModel(provider, {
        env: c.config.env,
        ...(c.config.settingsKey ? { settingsKey: c.config.settingsKey } : {}),
        ...(c.config.settingsEndpoint ? { settingsEndpoint: c.config.settingsEndpoint } : {}),
      });
    } catch (error) {
      io.err(errorMessage(error));
      return 1;
    }
    const session = values.session
      ? c.ledger.sessions.require(values.session as string)
      : c.ledger.createSession((values.title as string | undefined) ?? (question.length > 60 ? `${question.slice(0, 57)}...` : question));
    const write = ioWriter(io);
    // The protocol's own data parts: our internal patches become coalesced full snapshots.
    const ui = mode === 'ui' ? protocolSink((chunk) => write(sseEvent(chunk))) : null;
    const print = ui ? ui.push : textPrinter(write, io.isTTY ?? false);
    const unsubscribe = c.events.on('session.stream', (event) => {
      if (event.sessionId === session.id && isAssistantChunk(event.chunk)) print(event.chunk);
    });
    // A signal, or a reader that went away (`run ... | head`), ends the run as cancelled.
    const stop = () => c.runner.stop(session.id);
    for (const signal of STOP_SIGNALS) process.once(signal, stop);
    const unwatchStdout = onStdoutClosed(stop);
    try {
      const run = c.runner.submit({
        sessionId: session.id,
        mutationId: randomUUID(),
        message: question,
        ...(values.provider ? { provider: values.provider as string } : {}),
        ...(values.model ? { model: values.model as string } : {}),
        ...(maxTurns ? { maxTurns } : {}),
      });
      const done = await c.runner.result(run.id);
      if (ui) {
        ui.end();
        write(SSE_DONE);
      }
      if (done.status !== 'completed') {
        io.err(`run ${done.status}${done.failureCode ? ` (${done.failureCode})` : ''}: ${done.failureMessage ?? 'no reason given'}`);
      } else if (mode === 'text') {
        io.err(`session ${session.id} · run ${done.id}${done.usage?.inputTokens !== undefined ? ` · ${done.usage.inputTokens} in / ${done.usage.outputTokens ?? 0} out tokens` : ''}`);
      }
      return EXIT[done.status] ?? 1;
    } finally {
      for (const signal of STOP_SIGNALS) process.removeListener(signal, stop);
      unwatchStdout();
      unsubscribe();
      ui?.end();
    }
  },
};

import { startInsulinDemo } from '../../core/demo/demo';
import type { CliCommand, CliIO } from '../command';
import { usageError } from '../sessionArg';

/** Runs another command line of the CLI (the demo replays `run` against its recorded servers). */
export type RunCommandLine = (argv: string[], io: CliIO, env: NodeJS.ProcessEnv) => Promise<number>;

/**
 * `openai4s demo`. It is given the CLI's own entry rather than importing it, so the
 * command table (which lists the demo) and the demo do not import each other.
 */
export function createDemoCommand(runCommandLine: RunCommandLine): CliCommand {
  return {
    name: 'demo',
    summary: 'Replay the insulin story without a key (recorded model and database answers)',
    usage: 'openai4s demo [--stream ui|text]',
    noArguments: true,
    options: { stream: { type: 'string' } },
    needsCore: false,
    async run({ values, io, env }) {
      // Refused before the demo starts and says what it is: the usage error is the only line.
      const stream = (values.stream as string | undefined) ?? 'text';
      if (stream !== 'ui' && stream !== 'text') return usageError(io, 'demo')(`--stream must be ui or text, not "${stream}"`);
      const demo = await startInsulinDemo();
      io.err('OpenAI4S demo: a REPLAY of recorded model replies and recorded UniProt/RCSB answers; the kernel, evidence and artifacts are real.');
      try {
        return await runCommandLine(
          ['run', demo.question, '--title', demo.title, '--stream', stream],
          io,
          { ...env, ...demo.env },
        );
      } finally {
        await demo.close();
      }
    },
  };
}

import { startInsulinDemo } from '../../core/demo/demo';
import type { CliCommand } from '../command';
import { runCli } from '../main';

export const demoCommand: CliCommand = {
  name: 'demo',
  summary: 'Replay the insulin story without a key (recorded model and database answers)',
  usage: 'openai4s demo [--stream ui|text]',
  options: { stream: { type: 'string' } },
  needsCore: false,
  async run({ values, io, env }) {
    const demo = await startInsulinDemo();
    io.err('OpenAI4S demo: a REPLAY of recorded model replies and recorded UniProt/RCSB answers; the kernel, evidence and artifacts are real.');
    try {
      return await runCli(
        ['run', demo.question, '--title', demo.title, '--stream', (values.stream as string | undefined) ?? 'text'],
        io,
        { ...env, ...demo.env },
      );
    } finally {
      await demo.close();
    }
  },
};

import { runCli } from '../../src-main/cli/main';

/** What one in-process CLI run printed (each line as the CLI gave it, newline-ended) and its exit code. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs `openai4s <args>` in this process against the data root `dataDir` (no warm kernel). */
export async function runCliIn(dataDir: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) }, { ...env, OPENAI4S_DATA_DIR: dataDir, OPENAI4S_KERNEL_PREWARM: '0' });
  return { code, out, err };
}

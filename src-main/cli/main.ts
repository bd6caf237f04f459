import { parseArgs } from 'node:util';
import { createCore, type Core } from '../core/core';
import { APP_VERSION } from '../core/config/version';
import type { CliCommand, CliIO } from './command';
import { writeIfOpen } from './stdioGuard';
import { safeIO } from './terminalText';
import { clippedErrors } from './errorLine';
import { usageError } from './sessionArg';
import { doctorCommand } from './commands/doctor';
import { kernelCommand } from './commands/kernel';
import { llmCommand } from './commands/llm';
import { runCommand } from './commands/run';
import { exportCommand, verifyCommand } from './commands/export';
import { createDemoCommand } from './commands/demo';
import { sessionsCommand } from './commands/sessions';
import { showCommand } from './commands/show';
import { scienceCommand } from './commands/science';
import { skillsCommand } from './commands/skills';
import { artifactsCommand } from './commands/artifacts';
import { envCommand } from './commands/env';
import { computeCommand } from './commands/compute';
import { mcpCommand } from './commands/mcp';
import { reproduceCommand } from './commands/reproduce';
import { bibliographyCommand } from './commands/bibliography';
import { memoryCommand } from './commands/memory';
import { errorMessage } from '../core/shared/errorMessage';

/** Every command of `openai4s`, in the order `--help` lists them (the demo replays `run` through runCli). */
export const COMMANDS: CliCommand[] = [runCommand, createDemoCommand(runCli), sessionsCommand, showCommand, exportCommand, verifyCommand, reproduceCommand, kernelCommand, envCommand, memoryCommand, computeCommand, skillsCommand, scienceCommand, artifactsCommand, bibliographyCommand, mcpCommand, llmCommand, doctorCommand];

const commandHelp = (command: CliCommand) => `${command.summary}\n\nUsage: ${command.usage}`;

export function helpText(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    `openai4s ${APP_VERSION}: the OpenAI4S research-agent workbench, headless`,
    '',
    'Usage: openai4s <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Options:',
    '  -h, --help     show this help, or a command\'s usage with <command> --help (or help <command>)',
    '  -v, --version  print the version',
    '',
    'Environment: OPENAI4S_DATA_DIR (data root, default ~/.openai4s), OPENAI4S_PROVIDER,',
    'OPENAI4S_<PROVIDER>_API_KEY / _BASE_URL / _MODEL, OPENAI4S_PYTHON, OPENAI4S_SANDBOX.',
  ].join('\n');
}

const stdio: CliIO = {
  out: (t) => writeIfOpen(process.stdout, t.endsWith('\n') ? t : `${t}\n`),
  err: (t) => writeIfOpen(process.stderr, t.endsWith('\n') ? t : `${t}\n`),
  write: (t) => writeIfOpen(process.stdout, t),
  writeErr: (t) => writeIfOpen(process.stderr, t),
  isTTY: process.stdout.isTTY === true,
};

/**
 * parseArgs's refusal in one sentence: node's own words for an unknown option also explain
 * positional arguments that start with '-', which is not what the user got wrong.
 */
function optionProblem(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = errorMessage(error);
  const unknown = /Unknown option '([^']+)'/.exec(message);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) return `unknown option ${unknown[1]}`;
  // `--limit -5`: node explains in three lines that the value looks like an option.
  const ambiguous = /^Option '(-[^' ]+)[^']*' argument is ambiguous/.exec(message);
  if (ambiguous) return `${ambiguous[1]} needs a value; one that starts with "-" is written ${ambiguous[1]}=-VALUE`;
  return message.split('\n')[0]!;
}

/** Runs the CLI and returns the exit code; never throws. */
export async function runCli(argv: string[], rawIO: CliIO = stdio, env = process.env): Promise<number> {
  // Nothing reaches the terminal unfiltered: model text, cell output and echoed input
  // may carry escape sequences (clipboard writes, title changes, cursor moves).
  // An echoed argument of any length stays a readable line (errorLine.ts).
  const io = clippedErrors(safeIO(rawIO));
  const [name, ...rest] = argv;
  if (name === 'help' && rest.length > 0) {
    // `openai4s help run` is `openai4s run --help`.
    const asked = COMMANDS.find((c) => c.name === rest[0]);
    if (!asked || rest.length > 1) {
      io.err(`${asked ? 'help takes one command' : `Unknown command "${rest[0]}"`}. Run openai4s --help for the list of commands.`);
      return 2;
    }
    io.out(commandHelp(asked));
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(helpText());
    return 0;
  }
  if (name === '--version' || name === '-v') {
    io.out(APP_VERSION);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`Unknown command "${name}". Run openai4s --help for the list of commands.`);
    return 2;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return usageError(io, name)(optionProblem(error));
  }
  if (parsed.values.help) {
    io.out(commandHelp(command));
    return 0;
  }
  if (command.noArguments && parsed.positionals.length > 0) {
    return usageError(io, name)(`${name} takes no arguments (got "${parsed.positionals[0]}").`);
  }
  let core: Core | null = null;
  try {
    if (command.needsCore) core = createCore({ env });
    return await command.run({ core, values: parsed.values, positionals: parsed.positionals, io, env });
  } catch (error) {
    io.err(`openai4s ${name}: ${errorMessage(error)}`);
    return 1;
  } finally {
    await core?.close();
  }
}

import type { Core } from '../core/core';

export interface CliIO {
  /** A line (a newline is added when missing). */
  out(text: string): void;
  err(text: string): void;
  /** Raw output, for streaming (no newline added). Falls back to `out` when absent. */
  write?(text: string): void;
  /** Raw error output, for streaming a cell's stderr (no newline added). Falls back to `err` when absent. */
  writeErr?(text: string): void;
  /** Whether stdout is a terminal (dimmed reasoning, colours). */
  isTTY?: boolean;
}

/** One CLI command: its name, a one-line summary, its usage, and what it does. */
export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  /** Options in `node:util` parseArgs form. */
  options?: Record<string, { type: 'boolean' | 'string'; short?: string }>;
  /** Set on a command that takes no positional argument: one given is refused, not ignored. */
  noArguments?: true;
  /** Whether the command needs the core (data dir, config); `help` does not. */
  needsCore: boolean;
  run(ctx: {
    core: Core | null;
    values: Record<string, string | boolean | undefined>;
    positionals: string[];
    io: CliIO;
    /** The environment the CLI was started with. */
    env: NodeJS.ProcessEnv;
  }): Promise<number>;
}

import type { Core } from '../core/core';

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
}

/** One CLI command: its name, a one-line summary, its usage, and what it does. */
export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  /** Options in `node:util` parseArgs form. */
  options?: Record<string, { type: 'boolean' | 'string'; short?: string }>;
  /** Whether the command needs the core (data dir, config); `help` does not. */
  needsCore: boolean;
  run(ctx: {
    core: Core | null;
    values: Record<string, string | boolean | undefined>;
    positionals: string[];
    io: CliIO;
  }): Promise<number>;
}

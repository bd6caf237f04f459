import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../../src-main/core/core';
import { BIN, ROOT, tempDataDir } from './support/cliHarness';

/**
 * Case: `openai4s sessions | head -1` with more sessions than a pipe buffer holds. Once
 * `head` exits, the next write fails with EPIPE; the CLI must end quietly (no
 * "Unhandled 'error' event" stack trace on stderr). Needs the built CLI.
 */

let dataDir = '';
afterEach(() => {
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

function shell(command: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('openai4s output into a pipe that closes early', () => {
  it('`sessions | head -1` prints one line and no EPIPE trace', async () => {
    dataDir = tempDataDir('epipe');
    const env = { ...process.env, OPENAI4S_DATA_DIR: dataDir, OPENAI4S_KERNEL_PREWARM: '0' };
    const core = createCore({ env });
    try {
      // 700 sessions with long titles: a few times a 64 KiB pipe buffer.
      for (let i = 0; i < 700; i++) core.ledger.createSession(`session ${i} ${'about insulin structure and sequence '.repeat(6)}`);
    } finally {
      await core.close();
    }
    // `set -o pipefail` is not POSIX: report the CLI's own status through a file.
    const status = `${dataDir}/status`;
    for (const command of ['sessions', 'sessions --json']) {
      const result = await shell(`{ node "${BIN}" ${command}; echo $? > "${status}"; } | head -1`, env);
      expect(result.stderr, command).toBe('');
      expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(1);
      expect(fs.readFileSync(status, 'utf8').trim(), command).toBe('0');
    }
  });
});

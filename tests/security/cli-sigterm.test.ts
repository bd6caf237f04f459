import { describe, expect, it } from 'vitest';
import { cliEnv, cliInProcess, cliTestScope, spawnCli, waitUntil } from './support/cliHarness';

/**
 * Case: `kill <pid>` (SIGTERM: what systemd, container runtimes and job schedulers send)
 * while `openai4s run` waits on a stalled provider. The run must end as cancelled, like
 * Ctrl-C, not be killed mid-write and left `processing` in the ledger.
 * Needs the built CLI (`npm run -s build`).
 */

const scope = cliTestScope();

describe('SIGTERM to openai4s run', () => {
  it('ends the run as cancelled and the process exits on its own', async () => {
    const server = await scope.model([{ hang: true }]);
    const dataDir = scope.dataDir('sigterm');
    const env = cliEnv(dataDir, server.baseUrl, 'k-sigterm-0000');
    const { child, done } = spawnCli(['run', 'a question the provider never answers'], env);
    // The run is under way once the provider has the request.
    await waitUntil(() => server!.requests.length === 1, 'the provider request');
    child.kill('SIGTERM');
    const result = await done;
    expect(result.signal).toBeNull();
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/run cancelled/);
    // The provider connection was closed by the cancellation.
    await server.waitForRequestsEnded(1);

    const sessions = JSON.parse((await cliInProcess(['sessions', '--json'], env)).stdout) as { id: string }[];
    const show = JSON.parse((await cliInProcess(['show', sessions[0]!.id, '--json'], env)).stdout) as { runs: { status: string }[] };
    expect(show.runs.map((r) => r.status)).toEqual(['cancelled']);
  });
});

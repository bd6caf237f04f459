import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_CHARS, runRoutes } from '../../src-preload/contract/runs';
import { cliEnv, cliInProcess, cliTestScope } from './support/cliHarness';

/**
 * Case: the app refuses a message over its size limit at the IPC boundary, but the CLI
 * called the runner directly and sent anything (megabytes to the provider, into the
 * ledger). The CLI must refuse with the same limit, before anything is stored or sent.
 */

const scope = cliTestScope();

describe('openai4s run with an oversized message', () => {
  it('is refused with the app\'s limit named; nothing is stored or sent', async () => {
    const server = await scope.model([{ reply: [{ text: 'should not be asked' }] }]);
    const dataDir = scope.dataDir('msgsize');
    const env = cliEnv(dataDir, server.baseUrl, 'k-size-0000');
    const tooLong = 'x'.repeat(MAX_MESSAGE_CHARS + 1);
    // The app's route refuses this message: the CLI agrees with it.
    expect(runRoutes['run.submit'].input.safeParse({ sessionId: 's', mutationId: 'm', message: tooLong }).success).toBe(false);

    const result = await cliInProcess(['run', tooLong], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the message is longer than 20,000 characters');
    expect(server.requests).toHaveLength(0);
    expect(JSON.parse((await cliInProcess(['sessions', '--json'], env)).stdout)).toEqual([]);
  });

  it('a message at the limit is accepted', async () => {
    const server = await scope.model([{ reply: [{ text: 'ok' }] }, { reply: [{ text: 'ok' }] }]);
    const dataDir = scope.dataDir('msgsize');
    const env = cliEnv(dataDir, server.baseUrl, 'k-size-0000');
    await cliInProcess(['run', 'y'.repeat(MAX_MESSAGE_CHARS), '--max-turns', '1'], env);
    expect(server.requests.length).toBeGreaterThan(0);
  });
});

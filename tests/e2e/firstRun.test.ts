import { describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../src-main/core/settings/secretStore';
import { freePort } from '../support/daemons';
import { shootMatrix } from '../support/e2e/screens';
import { e2eSuite, scriptedModelEnv } from '../support/e2e/suite';
import type { ScriptStep } from '../support/scriptedModel';

/**
 * Issue 24, part A, against the real core and a scripted model on the OpenAI wire: the
 * first run without a provider (setup inline, Test connection against a closed port and
 * against the scripted server, save, ask), sending with none ready (the setup dialog,
 * the message sent once saved), and a failed run explained with Retry that then succeeds,
 * its refused answers in one line, then an edited question. Each state is pictured at
 * 1440×900 and 1024×700, light and dark, English and Chinese.
 */

const KEY = 'sk-e2e-setup-key-never-shown-4242';
const PROVIDER_PREFIXES = ['ARK', 'OPENAI', 'ANTHROPIC', 'GEMINI', 'DEEPSEEK', 'OLLAMA', 'OPENROUTER'];

/** No provider configured, whatever the machine running the tests has; Ollama pointed at a port where nothing listens. */
function firstRunEnv(ollamaPort: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { OPENAI4S_PROVIDER: '', OPENAI4S_LLM_API_KEY: '', OPENAI4S_KERNEL_PREWARM: '0' };
  for (const p of PROVIDER_PREFIXES) for (const v of ['API_KEY', 'BASE_URL', 'MODEL']) env[`OPENAI4S_${p}_${v}`] = '';
  env.OPENAI4S_OLLAMA_BASE_URL = `http://127.0.0.1:${ollamaPort}/v1`;
  return env;
}

const answer = (summary: string, claim: { basis: string; evidence: string[] } = { basis: 'inferred', evidence: [] }) => ({
  summary,
  claims: [{ statement: 'Insulin is a peptide hormone of 51 residues in two chains.', ...claim, uncertainty: 'textbook knowledge' }],
  limitations: ['No database was queried in this test.'],
  next_steps: [],
  suggested_questions: ['How is insulin folded?'],
  artifacts: [],
  completion_bullets: ['Answered the question'],
});
const finalize = (summary: string, claim?: { basis: string; evidence: string[] }): ScriptStep => ({
  reply: [{ toolCall: { name: 'finalize_response', arguments: answer(summary, claim) } }],
});

describe('first run, setup and errors that say what to do', () => {
  const e2e = e2eSuite();

  it('first run: the welcome screen offers the setup; Test connection explains a closed port, then succeeds; saved, a question runs', async () => {
    const model = await e2e.startModel([{ reply: [{ text: 'OK' }] }, finalize('Insulin is a peptide hormone.')]);
    const closed = await freePort();
    const shell = await e2e.openShell({ env: firstRunEnv(await freePort()), secrets: memorySecretStore(), viewport: { width: 1440, height: 900 } });
    const { page } = shell;
    await shell.open();

    const card = page.getByTestId('setup-card');
    await card.waitFor({ timeout: 45_000 });
    expect(await card.getByTestId('ark-plan').textContent()).toContain('¥9.9');
    expect(await card.getByTestId('get-key').getAttribute('href')).toContain('console.volcengine.com');
    expect(await card.getByTestId('setup-provider-ark').getByTestId('readiness').textContent()).toBe('needs a key');
    expect(await card.getByTestId('setup-provider-ollama').getByTestId('readiness').textContent()).toBe('not running');
    expect(await page.getByTestId('provider-picker').getAttribute('data-readiness')).toBe('no_key');
    await shootMatrix(page, 'first-run-setup');

    await card.getByTestId('setup-provider-openai').click();
    await card.getByTestId('setup-key').fill(KEY);
    await card.getByTestId('setup-base-url').fill(`http://127.0.0.1:${closed}/v1`);
    await card.getByTestId('setup-model').fill('scripted-model');
    await card.getByTestId('setup-test').click();
    const outcome = card.getByTestId('test-outcome');
    await card.locator('[data-testid="test-outcome"][data-ok="false"]').waitFor({ timeout: 30_000 });
    expect(await outcome.getAttribute('data-kind')).toBe('not_running');
    expect(await outcome.locator('p').first().textContent()).toBe(
      `Nothing answers at http://127.0.0.1:${closed}/v1. Start the local server for OpenAI, then retry.`,
    );
    expect(await outcome.getByTestId('problem-details').textContent()).toContain('ECONNREFUSED');
    await shootMatrix(page, 'setup-test-failed', { focus: outcome });

    await card.getByTestId('setup-base-url').fill(model.baseUrl);
    await card.getByTestId('setup-test').click();
    await card.locator('[data-testid="test-outcome"][data-ok="true"]').waitFor({ timeout: 30_000 });
    expect(await outcome.textContent()).toMatch(/Connected: scripted-model answered in \d+\.\d s\./);
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect((await shell.core.providers.list()).providers.find((p) => p.id === 'openai')?.readiness.state).toBe('no_key');
    await shootMatrix(page, 'setup-test-ok', { focus: outcome });

    await card.getByTestId('setup-save').click();
    await card.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('provider-picker').inputValue()).toBe('openai');
    expect(await page.getByTestId('provider-picker').getAttribute('data-readiness')).toBe('ready');
    const saved = (await shell.core.providers.list()).providers.find((p) => p.id === 'openai')!;
    expect(saved).toMatchObject({ keySource: 'settings', baseUrl: model.baseUrl, baseUrlOrigin: 'settings', model: 'scripted-model', isDefault: true });

    const box = page.getByTestId('composer-input');
    await box.fill('What is insulin?');
    await box.press('Enter');
    await page.locator('[data-testid="run-footer"][data-status="completed"]').waitFor({ timeout: 90_000 });
    expect(await page.getByTestId('answer-card').textContent()).toContain('Insulin is a peptide hormone.');
    expect((model.requests[1]!.body as { model: string }).model).toBe('scripted-model');
    expect(await page.content()).not.toContain(KEY);
    expect(shell.errors).toEqual([]);
  }, 300_000);

  it('sending with no provider ready opens the setup with the message waiting; Save and send sends it', async () => {
    const model = await e2e.startModel([finalize('Insulin lowers blood glucose.')]);
    const shell = await e2e.openShell({ env: firstRunEnv(await freePort()), secrets: memorySecretStore(), viewport: { width: 1440, height: 900 } });
    const { page } = shell;
    await shell.open();
    await page.getByTestId('setup-card').waitFor({ timeout: 45_000 });
    const box = page.getByTestId('composer-input');
    await box.fill('What does insulin do?');
    await box.press('Enter');
    const dialog = page.getByTestId('setup-dialog');
    await dialog.waitFor();
    await dialog.getByTestId('setup-pending').waitFor();
    expect(await box.inputValue()).toBe('What does insulin do?');
    expect(shell.core.ledger.sessions.list()).toEqual([]);
    await shootMatrix(page, 'setup-dialog');

    await dialog.getByTestId('setup-provider-openai').click();
    await dialog.getByTestId('setup-key').fill(KEY);
    await dialog.getByTestId('setup-base-url').fill(model.baseUrl);
    await dialog.getByTestId('setup-save').click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('user-message').filter({ hasText: 'What does insulin do?' }).waitFor();
    await page.locator('[data-testid="run-footer"][data-status="completed"]').waitFor({ timeout: 90_000 });
    expect(await box.inputValue()).toBe('');
    expect(shell.errors).toEqual([]);
  }, 240_000);

  it('a run that fails is one sentence with Retry; the retry succeeds, its refused answers in one line; an edited question runs again', async () => {
    const refusedUncited = finalize('First try.', { basis: 'observed', evidence: [] });
    const model = await e2e.startModel([
      // The connection breaks off after part of the answer.
      { reply: [{ text: 'Human insulin has 51 residues' }], cut: true },
      refusedUncited,
      refusedUncited,
      finalize('Insulin has an A chain (21) and a B chain (30).'),
      finalize('Insulin is made in the pancreas.'),
    ]);
    const shell = await e2e.openShell({ env: scriptedModelEnv(model.baseUrl, KEY), viewport: { width: 1440, height: 900 } });
    const { page } = shell;
    await shell.open();
    const box = page.getByTestId('composer-input');
    await box.fill('How many residues has human insulin?');
    await box.press('Enter');

    const failure = page.getByTestId('run-failure');
    await failure.waitFor({ timeout: 90_000 });
    expect(await failure.getAttribute('data-kind')).toBe('connection_lost');
    expect(await failure.locator('.run-failure-text').textContent()).toBe(
      'The connection to OpenAI broke off during the answer. Retry; if it keeps happening, check your network.',
    );
    // Honest about the partial text, which stays readable; no second copy of the error, no code as a headline.
    await failure.getByTestId('failure-partial').waitFor();
    expect(await page.getByTestId('assistant-message').first().textContent()).toContain('Human insulin has 51 residues');
    expect(await page.getByTestId('error-part').count()).toBe(0);
    const footer = await page.locator('[data-testid="run-footer"][data-status="failed"]').textContent();
    expect(footer).not.toMatch(/provider_unavailable/);
    await failure.getByTestId('problem-details').locator('summary').click();
    expect(await failure.getByTestId('problem-details').textContent()).toMatch(/openai: /);
    await shootMatrix(page, 'run-failure', { focus: failure });

    await failure.getByTestId('failure-retry').click();
    const answerCard = page.getByTestId('answer-card');
    await answerCard.waitFor({ timeout: 90_000 });
    await page.locator('[data-testid="run-footer"][data-status="completed"]').waitFor();
    const attempts = page.getByTestId('finalize-attempts');
    expect(await attempts.getAttribute('data-outcome')).toBe('fixed');
    expect(await attempts.locator('summary').textContent()).toBe('The answer was refused 2 times (missing citations); fixed on try 3.');
    expect(await page.getByTestId('tool-card').count()).toBe(0);
    // The failed attempt stays, marked as replaced; the retry's context holds the question once.
    expect(await page.locator('[data-testid="assistant-message"][data-superseded="true"]').count()).toBe(1);
    const sessionId = shell.core.ledger.sessions.list()[0]!.id;
    expect(shell.core.ledger.runs.listBySession(sessionId).map((r) => r.status)).toEqual(['failed', 'completed']);
    const retryRequest = model.requests[1]!.body as { messages: { role: string; content: unknown }[] };
    expect(retryRequest.messages.filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content))).toEqual([JSON.stringify('How many residues has human insulin?')]);
    await shootMatrix(page, 'retry-succeeded', { focus: attempts });

    // Edit-and-resend: the question edited, a new run; the old ones stay in the ledger.
    await page.getByTestId('regenerate').waitFor();
    const question = page.locator('[data-testid="user-message"]:not([data-superseded])').last();
    await question.getByTestId('edit-question').click();
    const editor = page.getByTestId('question-editor');
    await editor.locator('textarea').fill('Where is insulin made?');
    await shootMatrix(page, 'question-edit', { focus: editor });
    await editor.getByTestId('edit-send').click();
    await page.getByTestId('user-message').filter({ hasText: 'Where is insulin made?' }).waitFor();
    await expect.poll(() => shell.core.ledger.runs.listBySession(sessionId).map((r) => r.status), { timeout: 90_000 }).toEqual(['failed', 'completed', 'completed']);
    await page.getByTestId('answer-card').filter({ hasText: 'Insulin is made in the pancreas.' }).waitFor();
    expect(await page.locator('[data-testid="assistant-message"][data-superseded="true"]').count()).toBe(2);
    const editRequest = model.requests[4]!.body as { messages: { role: string; content: unknown }[] };
    expect(editRequest.messages.filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content))).toEqual([JSON.stringify('Where is insulin made?')]);
    expect(await page.content()).not.toContain(KEY);
    expect(shell.errors).toEqual([]);
  }, 300_000);
});

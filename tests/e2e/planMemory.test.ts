import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { saveScreenshot } from '../support/e2e/app';
import { askQuestion, e2eSuite, scriptedModelEnv } from '../support/e2e/suite';
import { validAnswer } from '../support/mockModel';

/**
 * Issue 19 in the browser, against the real core and a scripted model: the Plan tab shows
 * the agent's plan live, with what the run is doing now and its elapsed time, while a
 * cell runs (the cell waits for a file the test writes, so "live" needs no timing); the
 * Memory tab shows the agent's memory marked, and the user adds, edits and deletes.
 */
const GO_FILE = 'go-on.txt';
const CELL = ['```python', 'import os, time', `while not os.path.exists(${JSON.stringify(GO_FILE)}):`, '    time.sleep(0.05)', 'print("counted 51 residues")', '```'].join('\n');

describe('workbench: the live plan and memory', () => {
  const e2e = e2eSuite();

  it('shows the plan and the running step live, then lets the user manage memories', async () => {
    const model = await e2e.startModel([
      { reply: [{ toolCall: { name: 'find_tools', arguments: { query: 'plan remember' } } }] },
      {
        reply: [
          {
            toolCall: {
              name: 'write_todos',
              arguments: {
                todos: [
                  { id: 'search', title: 'Find the insulin record', status: 'completed' },
                  { id: 'count', title: 'Count the residues', status: 'in_progress' },
                  { id: 'answer', title: 'Write the answer' },
                ],
              },
            },
          },
        ],
      },
      { reply: [{ text: `Counting.\n${CELL}\n` }] },
      {
        reply: [
          { toolCall: { name: 'update_plan_step', arguments: { id: 'count', status: 'completed', note: '51 residues' } } },
          { toolCall: { name: 'update_plan_step', arguments: { id: 'answer', status: 'completed' } } },
          { toolCall: { name: 'remember', arguments: { text: 'The user studies human insulin.' } } },
        ],
      },
      { reply: [{ toolCall: { name: 'finalize_response', arguments: validAnswer } }] },
    ]);
    const shell = await e2e.openShell({
      locale: 'en-US',
      env: scriptedModelEnv(model.baseUrl, 'sk-e2e-plan-never-shown-4242'),
      viewport: { width: 1440, height: 1000 },
    });
    const { page, core } = shell;
    await shell.open();
    await askQuestion(page, 'How many residues has human insulin?');

    // While the cell runs: the plan beside the conversation, and what is happening now.
    await page.getByRole('tab', { name: 'Plan' }).click();
    const plan = page.getByTestId('plan-tab');
    await plan.getByTestId('plan-now').filter({ hasText: /Running Python code/ }).waitFor({ timeout: 90_000 });
    await plan.getByTestId('plan-now').filter({ hasText: /· \d+ s/ }).waitFor();
    // The running cell sits under the plan step it serves.
    await expect.poll(() => plan.getByTestId('thinking-step').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).toEqual(['completed', 'in_progress', 'in_progress', 'pending']);
    const counting = plan.getByTestId('thinking-step').nth(1);
    expect(await counting.textContent()).toContain('Count the residues');
    await counting.getByTestId('thinking-step').filter({ hasText: /Running Python code/ }).waitFor();
    // The conversation shows the same steps inline, the running cell among them.
    await page.getByTestId('assistant-message').getByTestId('thinking-step').filter({ hasText: /Running Python code/ }).first().waitFor();
    await saveScreenshot(page, 'workbench-live-plan-en.png');

    // Let the cell finish: the run completes and the plan with it.
    const [session] = core.ledger.sessions.list();
    fs.writeFileSync(path.join(core.kernels.workspaceFor(session!.id), GO_FILE), 'go');
    await page.locator('[data-testid="run-footer"][data-status="completed"]').waitFor({ timeout: 90_000 });
    await expect.poll(() => plan.getByTestId('thinking-step').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).toEqual(['completed', 'completed', 'completed']);
    await plan.getByText('51 residues').waitFor();
    await plan.getByTestId('plan-now').filter({ hasText: 'Nothing is running.' }).waitFor();

    // Memory: the agent's is marked; the user adds, edits and deletes.
    await page.getByRole('tab', { name: 'Memory' }).click();
    const tab = page.getByTestId('memory-tab');
    const agents = tab.locator('[data-testid="memory-item"][data-origin="agent"]');
    await agents.getByText('The user studies human insulin.').waitFor();
    expect(await agents.getByTestId('memory-origin').textContent()).toBe('agent');

    await tab.getByTestId('memory-add-input').fill('Plots use SI units.');
    await tab.getByTestId('memory-add').click();
    const mine = tab.locator('[data-testid="memory-item"][data-origin="user"]');
    await mine.getByText('Plots use SI units.').waitFor();
    expect(await mine.getByTestId('memory-origin').textContent()).toBe('you');

    await agents.getByTestId('memory-edit').click();
    await agents.getByTestId('memory-edit-input').fill('The user studies human and mouse insulin.');
    await agents.getByTestId('memory-save').click();
    await agents.getByText('The user studies human and mouse insulin.').waitFor();
    await agents.getByText('edited').waitFor();

    await mine.getByTestId('memory-delete').click();
    await expect.poll(() => mine.count()).toBe(0);

    // A key is refused with the reason, and nothing is stored.
    await tab.getByTestId('memory-add-input').fill('my key is sk-proj-abcdefghijklmnopqrstuvwx');
    await tab.getByTestId('memory-add').click();
    await tab.getByTestId('memory-add-error').filter({ hasText: /secret/ }).waitFor();
    await saveScreenshot(page, 'workbench-memory-en.png');

    // What the UI did is what the ledger holds.
    expect(core.ledger.memory.visible(session!.id).map((m) => [m.text, m.origin, m.editedBy])).toEqual([['The user studies human and mouse insulin.', 'agent', 'user']]);
    const events = core.ledger.db.prepare('SELECT action, origin FROM memory_events ORDER BY seq').all();
    expect(events).toEqual([
      { action: 'remember', origin: 'agent' },
      { action: 'remember', origin: 'user' },
      { action: 'edit', origin: 'user' },
      { action: 'forget', origin: 'user' },
    ]);
  }, 180_000);
});

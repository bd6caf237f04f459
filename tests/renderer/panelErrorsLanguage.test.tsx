/**
 * A failed call shown in a panel keeps main's error body, not its flattened English words,
 * so the panel says it in the window's language, and again in the other one when the user
 * switches: Chinese heads main's specifics with the case (errors/envelopeText.ts).
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope, McpView } from '../../src-preload/contract';
import { bridge, toErrorBody } from '../../src-renderer/src/api/bridge';
import { ExportResultBar } from '../../src-renderer/src/components/ExportPanel';
import { Notices } from '../../src-renderer/src/components/Notices';
import { MemoryTab } from '../../src-renderer/src/components/memory/MemoryTab';
import { WorkspaceFiles } from '../../src-renderer/src/components/panel/WorkspaceFiles';
import { McpServersSection } from '../../src-renderer/src/components/settings/McpServersSection';
import { NewSkillForm } from '../../src-renderer/src/components/skills/NewSkillForm';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { openConversation } from '../../src-renderer/src/store/conversationReducer';
import { envelopeErrorText } from '../../src-renderer/src/errors/envelopeText';
import { translate } from '../../src-renderer/src/i18n/language';
import { errorNotice } from '../../src-renderer/src/store/noticesReducer';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

const SESSION = 's-errors';

/** An English window over a fake main answering `routes` (anything else: not found), with `node` rendered. */
function englishWindow(routes: Record<string, Envelope<unknown>>, node: ReactNode) {
  window.openai4s = fakeBridgeApi((route) => routes[route] ?? { ok: false, error: { code: 'not_found', message: `no ${route} here` } });
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  store.setState({ conversation: { ...openConversation(SESSION, 1), status: 'ready' } });
  render(<StoreProvider store={store}>{node}</StoreProvider>);
  return store;
}

const toChinese = (store: ReturnType<typeof createAppStore>) => act(() => store.getState().setLanguage('zh-CN'));

afterEach(() => cleanup());

describe('a failed call in a panel follows the window’s language', () => {
  it('Memory: a refused memory reads in English, then in Chinese after the switch', async () => {
    const store = englishWindow(
      {
        'memory.list': { ok: true, data: { memories: [] } },
        'memory.add': { ok: false, error: { code: 'invalid_input', message: 'This memory looks like it contains a secret.', reason: 'invalid_input' } },
      },
      <MemoryTab />,
    );
    await screen.findByTestId('memory-empty');
    fireEvent.change(screen.getByTestId('memory-add-input'), { target: { value: 'sk-abc' } });
    fireEvent.click(screen.getByTestId('memory-add'));
    expect((await screen.findByTestId('memory-add-error')).textContent).toBe('This memory looks like it contains a secret.');
    toChinese(store);
    expect(screen.getByTestId('memory-add-error').textContent).toBe('输入无效：This memory looks like it contains a secret.');
  });

  it('Workspace files: a refused Save as artifact says its case in Chinese', async () => {
    const store = englishWindow(
      {
        'workspace.list': { ok: true, data: { path: '.', entries: [{ name: 'blob.bin', path: 'blob.bin', kind: 'file', size: 3 }], truncated: false } },
        'workspace.saveArtifact': { ok: false, error: { code: 'refused', message: 'Refused path "blob.bin".', reason: 'refused' } },
      },
      <WorkspaceFiles sessionId={SESSION} />,
    );
    fireEvent.click(await screen.findByTestId('files-save-artifact'));
    expect((await screen.findByTestId('files-saved')).textContent).toBe('Refused path "blob.bin".');
    toChinese(store);
    expect(screen.getByTestId('files-saved').textContent).toBe('已被安全规则拒绝：Refused path "blob.bin".');
  });

  it('Export: a failed export is headed in Chinese under the Chinese title', async () => {
    const store = englishWindow(
      { 'session.export': { ok: false, error: { code: 'internal', message: 'disk full while writing a.zip', reason: 'internal' } } },
      <ExportResultBar />,
    );
    await act(() => store.getState().exportSession());
    toChinese(store);
    expect(screen.getByTestId('export-result').textContent).toContain('导出失败');
    expect(screen.getByTestId('export-result').textContent).toContain('应用内部出错：disk full while writing a.zip');
  });

  it('New skill: a name that is taken is said in Chinese', async () => {
    const store = englishWindow(
      { 'skills.create': { ok: false, error: { code: 'conflict', message: 'A skill named "fit" exists.', reason: 'conflict' } } },
      <NewSkillForm userDir="/data/skills" onDone={() => {}} />,
    );
    toChinese(store);
    const [name, description] = screen.getAllByRole('textbox');
    fireEvent.change(name!, { target: { value: 'fit' } });
    fireEvent.change(description!, { target: { value: 'Fits curves.' } });
    fireEvent.submit(screen.getByTestId('new-skill-form'));
    expect((await screen.findByRole('alert')).textContent).toBe('冲突或正忙：A skill named "fit" exists.');
  });

  it('MCP servers: a server’s and mcp.json’s problems are headed in Chinese, main’s words kept', async () => {
    const view: McpView = {
      configFile: '/data/mcp.json',
      errors: ['mcpServers.bad: "command" is missing'],
      httpToken: 'tok',
      servers: [{ name: 'lab', transport: 'stdio', endpoint: 'lab-mcp', state: 'crashed', error: 'exited with code 3', skipped: [], tools: null, override: null }],
    };
    const store = englishWindow({ 'mcp.list': { ok: true, data: view } }, <McpServersSection />);
    expect(await screen.findByText('exited with code 3')).toBeTruthy();
    expect(screen.getByText('mcpServers.bad: "command" is missing')).toBeTruthy();
    toChinese(store);
    expect(screen.getByText('服务器出错：exited with code 3')).toBeTruthy();
    expect(screen.getByText('mcp.json 有问题：mcpServers.bad: "command" is missing')).toBeTruthy();
  });

  it('a call that never reached main is headed in Chinese as unavailable', async () => {
    window.openai4s = { invoke: () => Promise.reject(new Error('socket closed')), on: () => () => {} };
    const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['zh-CN'] });
    render(
      <StoreProvider store={store}>
        <Notices />
      </StoreProvider>,
    );
    await act(() => bridge.invoke('session.list', {}).catch((error: unknown) => store.getState().receiveNotice(errorNotice(error))));
    expect(screen.getByRole('alert').querySelector('span')?.textContent).toBe('暂时无法完成：The call to session.list did not reach the app: socket closed');
  });

  it('an error the window threw itself is headed as internal in Chinese, its words kept', () => {
    const zh = (key: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) => translate('zh-CN', key, params);
    expect(envelopeErrorText(zh, toErrorBody(new Error('the session’s history before seq 19 came back incomplete')))).toBe('应用内部出错：the session’s history before seq 19 came back incomplete');
    expect(envelopeErrorText(zh, toErrorBody('plain text thrown'))).toBe('应用内部出错：plain text thrown');
  });
});

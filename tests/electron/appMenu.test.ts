import { describe, expect, it } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { menuTemplate } from '../../src-main/electron/appMenu';

const roles = (items: MenuItemConstructorOptions[]): string[] =>
  items.flatMap((i) => [...(i.role ? [i.role] : []), ...(Array.isArray(i.submenu) ? roles(i.submenu) : [])]);

describe('the application menu', () => {
  it('speaks the window’s language and keeps the edit commands macOS routes shortcuts through', () => {
    const zh = menuTemplate('zh-CN', { mac: true, packaged: true });
    expect(zh.map((m) => m.label)).toEqual(['OpenAI4S', '编辑', '视图', '窗口']);
    expect(roles(zh)).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll', 'quit', 'close']));
    expect(menuTemplate('en', { mac: false, packaged: true }).map((m) => m.label)).toEqual(['Edit', 'View', 'Window']);
  });

  it('offers Reload and the developer tools only to a build that is not packaged', () => {
    expect(roles(menuTemplate('en', { mac: false, packaged: true }))).not.toEqual(expect.arrayContaining(['reload']));
    expect(roles(menuTemplate('en', { mac: false, packaged: true }))).not.toContain('toggleDevTools');
    expect(roles(menuTemplate('en', { mac: false, packaged: false }))).toEqual(expect.arrayContaining(['reload', 'toggleDevTools']));
  });
});

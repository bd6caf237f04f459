import type { MenuItemConstructorOptions } from 'electron';
import type { UiLanguage } from '../../src-preload/contract/settings';

/**
 * The application menu in the window's language. Electron's default menu is English and
 * offers Reload and the developer tools to everyone; this one keeps what a user needs (the
 * edit commands macOS routes Cmd+C/V through, zoom, full screen, window) and gives the
 * developer items only to a build that is not packaged.
 */
const LABELS: Record<UiLanguage, Record<string, string>> = {
  en: {
    edit: 'Edit', undo: 'Undo', redo: 'Redo', cut: 'Cut', copy: 'Copy', paste: 'Paste', selectAll: 'Select All',
    view: 'View', zoomIn: 'Zoom In', zoomOut: 'Zoom Out', resetZoom: 'Actual Size', fullscreen: 'Toggle Full Screen',
    reload: 'Reload', devtools: 'Toggle Developer Tools',
    window: 'Window', minimize: 'Minimize', close: 'Close Window',
    about: 'About OpenAI4S', hide: 'Hide OpenAI4S', hideOthers: 'Hide Others', unhide: 'Show All', quit: 'Quit OpenAI4S',
  },
  'zh-CN': {
    edit: '编辑', undo: '撤销', redo: '重做', cut: '剪切', copy: '复制', paste: '粘贴', selectAll: '全选',
    view: '视图', zoomIn: '放大', zoomOut: '缩小', resetZoom: '实际大小', fullscreen: '切换全屏',
    reload: '重新加载', devtools: '切换开发者工具',
    window: '窗口', minimize: '最小化', close: '关闭窗口',
    about: '关于 OpenAI4S', hide: '隐藏 OpenAI4S', hideOthers: '隐藏其他', unhide: '全部显示', quit: '退出 OpenAI4S',
  },
};

export function menuTemplate(language: UiLanguage, options: { mac: boolean; packaged: boolean }): MenuItemConstructorOptions[] {
  const l = LABELS[language];
  const sep: MenuItemConstructorOptions = { type: 'separator' };
  const app: MenuItemConstructorOptions[] = options.mac
    ? [
        {
          label: 'OpenAI4S',
          submenu: [
            { role: 'about', label: l.about },
            sep,
            { role: 'hide', label: l.hide },
            { role: 'hideOthers', label: l.hideOthers },
            { role: 'unhide', label: l.unhide },
            sep,
            { role: 'quit', label: l.quit },
          ],
        },
      ]
    : [];
  const developer: MenuItemConstructorOptions[] = options.packaged ? [] : [sep, { role: 'reload', label: l.reload }, { role: 'toggleDevTools', label: l.devtools }];
  return [
    ...app,
    {
      label: l.edit,
      submenu: [
        { role: 'undo', label: l.undo },
        { role: 'redo', label: l.redo },
        sep,
        { role: 'cut', label: l.cut },
        { role: 'copy', label: l.copy },
        { role: 'paste', label: l.paste },
        { role: 'selectAll', label: l.selectAll },
      ],
    },
    {
      label: l.view,
      submenu: [
        { role: 'zoomIn', label: l.zoomIn },
        { role: 'zoomOut', label: l.zoomOut },
        { role: 'resetZoom', label: l.resetZoom },
        sep,
        { role: 'togglefullscreen', label: l.fullscreen },
        ...developer,
      ],
    },
    {
      label: l.window,
      submenu: [{ role: 'minimize', label: l.minimize }, options.mac ? { role: 'close', label: l.close } : { role: 'quit', label: l.quit }],
    },
  ];
}

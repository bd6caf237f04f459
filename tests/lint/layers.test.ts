import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Proves the layer rules of DESIGN.md fire: each case is linted with the repo's own
 * eslint.config.mjs as if it were a file at the given (virtual) path, so the
 * per-folder rules apply exactly as in `npx eslint .`.
 */
const repoRoot = path.resolve(__dirname, '../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot });
});

const LAYER_RULES = ['@typescript-eslint/no-restricted-imports', 'no-restricted-syntax'];

async function lint(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, filePath) });
  return result!.messages;
}

/** A one-import module that uses what it imports, so nothing but the import can be wrong. */
function moduleWith(importLine: string): string {
  const typeOnly = /^import type|^import \{ type /.test(importLine);
  const name = /import (?:type )?\{ ?(?:type )?(\w+)|import (?:type )?(\w+)/.exec(importLine);
  const used = name?.[1] ?? name?.[2];
  return `${importLine}\n${typeOnly ? `export type Used = ${used};` : `export const used = ${used};`}\n`;
}

async function expectRefused(filePath: string, code: string, message: RegExp) {
  const messages = await lint(filePath, code);
  const layer = messages.filter((m) => m.ruleId && LAYER_RULES.includes(m.ruleId));
  expect(
    layer,
    `expected a layer error for ${JSON.stringify(code)} in ${filePath}`,
  ).not.toHaveLength(0);
  expect(layer.every((m) => m.severity === 2)).toBe(true);
  expect(layer.map((m) => m.message).join('\n')).toMatch(message);
}

async function expectAllowed(filePath: string, code: string) {
  const messages = await lint(filePath, code);
  expect(messages, `expected ${JSON.stringify(code)} to lint clean in ${filePath}`).toEqual([]);
}

describe('layer rule: src-main/core never imports electron', () => {
  const file = 'src-main/core/x.ts';
  it.each([
    "import { app } from 'electron';",
    "import type { App } from 'electron';",
    "import { ipcMain } from 'electron/main';",
  ])('refuses %s', async (line) => {
    await expectRefused(file, moduleWith(line), /electron/);
  });

  it('refuses a dynamic import of electron', async () => {
    await expectRefused(file, "export const electron = import('electron');\n", /electron/);
  });

  it('refuses the Electron glue from inside core', async () => {
    await expectRefused(
      'src-main/core/api/x.ts',
      moduleWith("import { bindRouterToIpc } from '../../electron/ipc';"),
      /Electron glue/,
    );
  });

  it('allows Node built-ins and the contract', async () => {
    await expectAllowed(file, moduleWith("import fs from 'node:fs';"));
    await expectAllowed(
      file,
      moduleWith("import { routes } from '../../src-preload/contract/routes';"),
    );
  });

  it('does not restrict the Electron glue itself', async () => {
    await expectAllowed('src-main/electron/x.ts', moduleWith("import { app } from 'electron';"));
  });
});

describe('layer rule: src-renderer imports only contract types and the pure modules (fold, evidence labels, cell view)', () => {
  const file = 'src-renderer/src/x.tsx';
  it.each([
    ["import { z } from 'zod';", /no schema code/],
    ["import { routes } from '../../src-preload/contract/routes';", /only types/],
    ["import { doctorRoutes } from '../../src-preload/contract/doctor';", /only types/],
    ["import { AppError } from '../../src-preload/contract/errors';", /only types/],
    ["import { createCore } from '../../src-main/core/core';", /never imports from main/],
    ["import type { Core } from '../../src-main/core/core';", /never imports from main/],
    ["import { APP_ORIGIN } from '../../src-main/electron/origin';", /never imports from main/],
    ["import { ipcRenderer } from 'electron';", /no Node and no Electron/],
    ["import fs from 'node:fs';", /no Node built-ins/],
    ["import fs from 'fs';", /no Node built-ins/],
    ["import cp from 'child_process';", /no Node built-ins/],
    ["import type { BridgeApi } from '../../src-preload/index';", /never the preload/],
  ])('refuses %s', async (line, message) => {
    await expectRefused(file, moduleWith(line), message);
  });

  it('refuses a dynamic import of electron', async () => {
    await expectRefused(file, "export const electron = import('electron');\n", /electron/);
  });

  it.each([
    "import type { Routes } from '../../src-preload/contract/routes';",
    "import type { Routes } from '../../src-preload/contract';",
    "import { type DoctorReport } from '../../src-preload/contract/doctor';",
    "import { fold } from '../../src-preload/contract/fold';",
    "import { evidenceLabel } from '../../src-preload/contract/evidenceLabel';",
    "import { cellDataOfResult } from '../../src-preload/contract/cellView';",
    "import { create } from 'zustand';",
  ])('allows %s', async (line) => {
    await expectAllowed(file, moduleWith(line));
  });

  it('allows the fold from a deeper folder, but not a look-alike name', async () => {
    await expectAllowed(
      'src-renderer/src/a/b/x.tsx',
      moduleWith("import { fold } from '../../../../src-preload/contract/fold';"),
    );
    await expectRefused(
      file,
      moduleWith("import { folder } from '../../src-preload/contract/folder';"),
      /only types/,
    );
  });
});

describe('layer rule: src-preload/contract imports only zod and its own files', () => {
  const file = 'src-preload/contract/x.ts';
  it.each([
    "import { z } from 'zod';",
    "import { route } from './define';",
    "import type { Envelope } from './errors';",
  ])('allows %s', async (line) => {
    await expectAllowed(file, moduleWith(line));
  });

  it.each([
    "import fs from 'node:fs';",
    "import React from 'react';",
    "import { x } from '../../src-main/core/core';",
    "import { ipcRenderer } from 'electron';",
    "import { x } from './sub/y';",
    "import { x } from '../index';",
  ])('refuses %s', async (line) => {
    await expectRefused(file, moduleWith(line), /only zod and its own files/);
  });

  it('refuses a re-export from outside', async () => {
    await expectRefused(file, "export { readFile } from 'node:fs';\n", /only zod/);
  });
});

describe('the layer rules cover the real folders', () => {
  it.each([
    ['src-main/core/core.ts', /electron/],
    ['src-main/core/api/router.ts', /electron/],
    ['src-renderer/src/main.tsx', /renderer/],
    ['src-preload/contract/routes.ts', /only zod/],
  ])('%s is linted with its layer rule', async (file, message) => {
    const config = (await eslint.calculateConfigForFile(path.join(repoRoot, file))) as {
      rules: Record<string, unknown>;
    };
    const rule = config.rules['@typescript-eslint/no-restricted-imports'];
    expect(rule, file).toBeDefined();
    expect(JSON.stringify(rule)).toMatch(message);
  });
});

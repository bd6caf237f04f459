/**
 * The uploads an export carries for reproduction (reproduce/inputs.json) are listed in
 * the session workspace without following a symlink: an `uploads` link the kernel made to
 * a folder outside the workspace names nothing of that folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8 } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { INPUTS_FILE, reproduceFiles } from '../../../src-main/core/export/reproducePackage';
import { readWorkspaceFile } from '../../../src-main/core/workspace/safeFs';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function tmp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-reproduce-uploads-'));
  dirs.push(dir);
  return dir;
}

function inputsOf(workspace: string): { path: string; file?: string; missing?: string }[] {
  const read = (rel: string) => {
    try {
      return readWorkspaceFile(workspace, rel).bytes;
    } catch {
      return null;
    }
  };
  const files = reproduceFiles([], [], workspace, read, [], new Uint8Array());
  return JSON.parse(strFromU8(files.get(INPUTS_FILE)!));
}

describe('reproduce inputs: uploads', () => {
  it('carries the regular files of uploads/', () => {
    const workspace = tmp();
    fs.mkdirSync(path.join(workspace, 'uploads'));
    fs.writeFileSync(path.join(workspace, 'uploads', 'plate.csv'), 'well,od\nA1,0.3\n');
    expect(inputsOf(workspace)).toEqual([expect.objectContaining({ path: 'uploads/plate.csv', file: 'reproduce/inputs/uploads/plate.csv' })]);
  });

  it('lists nothing through an uploads symlink to a folder outside the workspace', () => {
    const workspace = tmp();
    const outside = tmp();
    fs.writeFileSync(path.join(outside, 'private.txt'), 'not the session\'s');
    fs.symlinkSync(outside, path.join(workspace, 'uploads'));
    expect(inputsOf(workspace)).toEqual([]);
  });
});

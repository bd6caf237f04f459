import os from 'node:os';
import path from 'node:path';
import { isExecutableFile } from '../shared/executables';

/** The usual places a conda distribution lives (Miniforge, Mambaforge, Miniconda, Anaconda, Docker images, Homebrew casks). */
export function condaRoots(home = os.homedir()): string[] {
  return [
    ...['miniforge3', 'mambaforge', 'miniconda3', 'anaconda3', 'micromamba'].map((n) => path.join(home, n)),
    '/opt/conda',
    '/opt/miniconda3',
    '/opt/homebrew/Caskroom/miniforge/base',
  ];
}

/** The conda (or mamba) executable: CONDA_EXE / MAMBA_EXE, then PATH, then the usual roots; null when there is none. */
export function findConda(processEnv: NodeJS.ProcessEnv, home = os.homedir()): string | null {
  const candidates = [processEnv.CONDA_EXE, processEnv.MAMBA_EXE];
  for (const dir of (processEnv.PATH ?? '').split(path.delimiter)) if (dir) candidates.push(path.join(dir, 'mamba'), path.join(dir, 'conda'));
  for (const root of condaRoots(home)) candidates.push(path.join(root, 'bin', 'mamba'), path.join(root, 'bin', 'conda'));
  return candidates.find((c): c is string => !!c && isExecutableFile(c)) ?? null;
}

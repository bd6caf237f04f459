import type fs from 'node:fs';

/**
 * What a path that is not a regular file is, in words, for errors that must say why it
 * was refused ("/dev/full is a character device"). Regular files answer "a file".
 */
export function fileKind(stats: fs.Stats): string {
  if (stats.isFile()) return 'a file';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isFIFO()) return 'a fifo (named pipe)';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

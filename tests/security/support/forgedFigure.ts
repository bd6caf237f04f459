/**
 * Python for a cell that forges a figure: a `display` frame written straight to fd 3
 * (the worker's frame channel, which a cell can always reach) carrying `bytes` as the
 * PNG. The frame must name the running cell, which the cell finds in the worker's
 * stack. The host saves an untitled `image/png` display as `figures/<gen8>-cell<N>-<k>.png`
 * (or `-2`… when that name is taken; see kernel/figureName.ts).
 */
export function forgeFigureCode(bytes: string): string {
  return [
    'import base64, json, os, sys',
    'f = sys._getframe()',
    "while f is not None and 'cell_id' not in f.f_locals:",
    '    f = f.f_back',
    `frame = {"type": "display", "id": f.f_locals["cell_id"], "data": {"image/png": base64.b64encode(${JSON.stringify(bytes)}.encode()).decode()}}`,
    'os.write(3, (json.dumps(frame) + "\\n").encode())',
    'del f, frame',
  ].join('\n');
}

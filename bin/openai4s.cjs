#!/usr/bin/env node
// The `openai4s` command: runs the built CLI. Build first with `npm run build`.
const path = require('node:path');
const fs = require('node:fs');
const entry = path.join(__dirname, '..', 'out', 'main', 'cli.js');
if (!fs.existsSync(entry)) {
  process.stderr.write('openai4s: the app is not built yet. Run `npm run build` in ' + path.join(__dirname, '..') + '\n');
  process.exit(2);
}
require(entry);

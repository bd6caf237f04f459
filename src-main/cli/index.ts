import { runCli } from './main';
import { guardStdio } from './stdioGuard';
import { errorMessage } from '../core/shared/errorMessage';

// `openai4s sessions | head -1`: a reader that goes away ends output quietly.
guardStdio();

// The built entry of the `openai4s` command (out/main/cli.js).
runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`openai4s: ${errorMessage(error)}\n`);
    process.exitCode = 1;
  },
);

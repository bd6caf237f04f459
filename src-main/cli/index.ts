import { runCli } from './main';

// The built entry of the `openai4s` command (out/main/cli.js).
runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`openai4s: ${String(error)}\n`);
    process.exitCode = 1;
  },
);

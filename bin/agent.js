#!/usr/bin/env node
// The `agent` command (package bin): runs the TypeScript CLI through tsx's CommonJS hook.
require('tsx/cjs');
const { main } = require('../client/cli.ts');
main(process.argv.slice(2), { input: process.stdin, output: process.stdout, error: process.stderr, env: process.env }).then(
  (code) => process.exit(code),
);

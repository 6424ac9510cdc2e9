#!/usr/bin/env node
// The `agent` command (package bin): runs the TypeScript CLI through tsx's CommonJS hook.
require('tsx/cjs');
require('../client/cli.ts').runFromShell();

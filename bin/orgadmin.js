#!/usr/bin/env node
'use strict';
// The `orgadmin` executable: runs the compiled command line (`npm run build` writes dist/).
let cli;
let io;
try {
  cli = require('../dist/cli/main.js');
  io = require('../dist/cli/io.js');
} catch (error) {
  if (error && error.code === 'MODULE_NOT_FOUND' && String(error.message).includes('dist/cli/')) {
    process.stderr.write('orgadmin: the compiled command line is missing; run "npm run build" first.\n');
    process.exit(1);
  }
  throw error;
}

cli.main(process.argv.slice(2), io.processIO()).then((code) => {
  process.exitCode = code;
});

#!/usr/bin/env node
// `npx wa-broadcast <command> …`: the CSV broadcast CLI (scripts/broadcast-cli.ts) without npm's
// banner and spinner around it (see wa-admin.cjs).
require('tsx/cjs/api').register();
require('../broadcast-cli.ts')
  .broadcastCli(process.argv.slice(2))
  .then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );

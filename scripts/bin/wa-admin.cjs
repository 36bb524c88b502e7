#!/usr/bin/env node
// `npx wa-admin <command> …`: the operators' CLI (scripts/admin.ts) with nothing but its JSON on
// stdout. `npm run admin` prints npm's own banner (`> whatsapp-broadcast-platform@… admin`) on
// stdout before the script starts, which no script can take back; a package bin runs without it.
require('tsx/cjs/api').register();
require('../admin.ts')
  .runAdminCli(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });

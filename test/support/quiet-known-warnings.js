// One warning the test run itself causes and nobody should read as an error: under jest, fauxqs
// (ESM only) is imported through Node's main-context loader (local/native-import.ts), which Node
// reports as an ExperimentalWarning once per process. Every other warning is printed as before.
// jest.config.js installs this in its own process and, through NODE_OPTIONS, in every worker.
const quietened = 'vm.USE_MAIN_CONTEXT_DEFAULT_LOADER';

function quietKnownWarnings(target = process) {
  if (target.__quietKnownWarnings) return;
  target.__quietKnownWarnings = true;
  const printers = target.listeners('warning');
  target.removeAllListeners('warning');
  target.on('warning', (warning) => {
    if (warning && warning.name === 'ExperimentalWarning' && String(warning.message).includes(quietened)) return;
    for (const print of printers) print.call(target, warning);
  });
}

quietKnownWarnings();
module.exports = { quietKnownWarnings };

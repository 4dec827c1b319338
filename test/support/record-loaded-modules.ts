// Loaded with `node --import` before a command: writes every module URL the process loaded
// (ESM and CommonJS alike, through module.registerHooks) to COFFER_LOADED_MODULES_FILE at exit,
// so a test can say which modules a command needed, whatever the machine's speed.
import { writeFileSync } from 'node:fs';
import module from 'node:module';

const loaded = new Set<string>();
module.registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => {
  const file = process.env.COFFER_LOADED_MODULES_FILE;
  if (file) writeFileSync(file, [...loaded].join('\n'));
});

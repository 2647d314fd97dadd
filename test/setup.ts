// Every test worker runs hermetic: its own empty config directory, and none of the developer's
// ESIGN_* settings leak into the processes tests start.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

for (const name of ['ESIGN_BASE_URL', 'ESIGN_API_KEY', 'ESIGN_PROFILE', 'ESIGN_DATA_DIR', 'ESIGN_DEBUG'])
  delete process.env[name];
process.env.ESIGN_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'esign-config-'));

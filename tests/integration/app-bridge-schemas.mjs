// SPDX-License-Identifier: GPL-3.0-or-later
// Checks what McpAppBridge sent against the ext-apps SDK's own schemas (the
// ones its App parses a host's messages with). Reads JSON Lines from stdin,
// each {"schema": "<name>", "value": …}; prints each failure; exit 1 when
// one failed.
import * as apps from '@modelcontextprotocol/ext-apps';
import { readFileSync } from 'node:fs';

let failed = 0;
const lines = readFileSync(0, 'utf8').split('\n').filter((line) => line.length > 0);
for (const line of lines) {
  const { schema, value } = JSON.parse(line);
  const checked = apps[schema].safeParse(value);
  if (!checked.success) {
    failed++;
    console.log(`${schema}: ${JSON.stringify(checked.error.issues)}`);
  }
}
console.log(`${lines.length} checked, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

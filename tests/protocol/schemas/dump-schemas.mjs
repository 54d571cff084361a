// Dumps every tool's inputSchema / outputSchema of a server: node dump-schemas.mjs SERVER_SCRIPT [ARGS…] > server-NAME.json
import { Client } from '../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js';
import { StdioClientTransport } from '../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js';
import { ListRootsRequestSchema, CreateMessageRequestSchema, ElicitRequestSchema } from '../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.js';
const [,, script, ...args] = process.argv;
const client = new Client({ name: 'dump', version: '1' }, { capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} } });
client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///tmp', name: 'tmp' }] }));
const transport = new StdioClientTransport({ command: process.execPath, args: [script, ...args], stderr: 'ignore' });
await client.connect(transport);
await new Promise(r => setTimeout(r, 1500));
const { tools } = await client.listTools();
const out = {};
for (const t of tools) {
  out[t.name] = { inputSchema: t.inputSchema };
  if (t.outputSchema) out[t.name].outputSchema = t.outputSchema;
}
process.stdout.write(JSON.stringify(out, null, 2) + '\n');
await client.close();
process.exit(0);

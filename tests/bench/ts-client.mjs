// SPDX-License-Identifier: GPL-3.0-or-later
//
// The TypeScript SDK side of bench-stdio: the same sequence of tools/call
// round trips against the same echo server, through the official client.
//
//   node ts-client.mjs ECHO_SERVER WARMUP CALLS PIPELINED_CALLS WINDOW
//
// Prints one JSON line on stdout:
//   {"median_us":…,"p99_us":…,"calls_per_sec":…,
//    "pipelined_calls_per_sec":…,"peak_rss_kb":…}
// and exits 1 with a message on stderr when anything fails.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

function fail (message) {
  process.stderr.write(`ts-client: ${message}\n`);
  process.exit(1);
}

function percentile (sorted, p) {
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

const [server, warmupArg, callsArg, pipelinedArg, windowArg] = process.argv.slice(2);
const warmup = Number.parseInt(warmupArg, 10);
const calls = Number.parseInt(callsArg, 10);
const pipelined = Number.parseInt(pipelinedArg, 10);
const window = Number.parseInt(windowArg, 10);

if (!server || ![warmup, calls, pipelined, window].every((n) => Number.isInteger(n) && n > 0))
  fail('usage: ts-client.mjs ECHO_SERVER WARMUP CALLS PIPELINED_CALLS WINDOW');

const request = { name: 'echo', arguments: { message: 'hello' } };

async function callOnce (client) {
  const result = await client.callTool(request);
  if (result.isError || result.content?.[0]?.text !== 'hello')
    throw new Error(`unexpected tools/call result ${JSON.stringify(result)}`);
}

async function main () {
  const transport = new StdioClientTransport({ command: server, args: [], stderr: 'inherit' });
  const client = new Client({ name: 'plugboard-bench-ts', version: '1.0.0' });

  await client.connect(transport);

  for (let i = 0; i < warmup; i++)
    await callOnce(client);

  const latencies = new Float64Array(calls);
  const seqStart = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) {
    const t0 = process.hrtime.bigint();
    await callOnce(client);
    latencies[i] = Number(process.hrtime.bigint() - t0) / 1000;
  }
  const seqSeconds = Number(process.hrtime.bigint() - seqStart) / 1e9;
  latencies.sort();

  // Keep `window` calls in flight: each worker starts its next call when
  // its previous one finishes, until `pipelined` calls have been started.
  let started = 0;
  async function worker () {
    while (started < pipelined) {
      started++;
      await callOnce(client);
    }
  }
  const pipeStart = process.hrtime.bigint();
  await Promise.all(Array.from({ length: Math.min(window, pipelined) }, worker));
  const pipeSeconds = Number(process.hrtime.bigint() - pipeStart) / 1e9;

  const peakRssKb = process.resourceUsage().maxRSS;

  await client.close();

  process.stdout.write(JSON.stringify({
    median_us: percentile(latencies, 50),
    p99_us: percentile(latencies, 99),
    calls_per_sec: calls / seqSeconds,
    pipelined_calls_per_sec: pipelined / pipeSeconds,
    peak_rss_kb: peakRssKb,
  }) + '\n');
}

main().catch((error) => fail(error?.stack ?? String(error)));

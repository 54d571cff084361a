// SPDX-License-Identifier: GPL-3.0-or-later
//
// The TypeScript SDK side of bench-http: the same sequence of Streamable
// HTTP tools/call round trips against the same echo server, through the
// official Client and StreamableHTTPClientTransport (Node's fetch).
//
//   node ts-http-client.mjs URL WARMUP CALLS PIPELINED_CALLS WINDOW
//
// Prints one JSON line on stdout:
//   {"median_us":…,"p99_us":…,"calls_per_sec":…,
//    "pipelined_calls_per_sec":…,"peak_rss_kb":…}
// and exits 1 with a message on stderr when anything fails.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// Only to turn a hang into a failure; the run takes seconds.
const HANG_GUARD_MS = 300_000;

function fail (message) {
  process.stderr.write(`ts-http-client: ${message}\n`);
  process.exit(1);
}

function percentile (sorted, p) {
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

const [url, warmupArg, callsArg, pipelinedArg, windowArg] = process.argv.slice(2);
const warmup = Number.parseInt(warmupArg, 10);
const calls = Number.parseInt(callsArg, 10);
const pipelined = Number.parseInt(pipelinedArg, 10);
const window = Number.parseInt(windowArg, 10);

if (!url || !(Number.isInteger(warmup) && warmup >= 0) ||
    ![calls, pipelined, window].every((n) => Number.isInteger(n) && n > 0))
  fail('usage: ts-http-client.mjs URL WARMUP CALLS PIPELINED_CALLS WINDOW');

const request = { name: 'echo', arguments: { message: 'hello' } };
let progress = 'connecting';

// Node 20's fetch adds an abort listener per request to the transport's
// long-lived AbortSignal and drops it only when the request is collected,
// so the SDK trips MaxListenersExceededWarning thousands of times; printing
// each would be measured too. Count them and say so once at the end.
let listenerWarnings = 0;
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'MaxListenersExceededWarning')
    listenerWarnings++;
  else
    process.stderr.write(`ts-http-client: ${warning.name}: ${warning.message}\n`);
});

async function callOnce (client) {
  const result = await client.callTool(request);
  if (result.isError || result.content?.[0]?.text !== 'hello')
    throw new Error(`unexpected tools/call result ${JSON.stringify(result)}`);
}

async function main () {
  const guard = setTimeout(() => fail(`no result after ${HANG_GUARD_MS / 1000} s (${progress})`),
                           HANG_GUARD_MS);
  guard.unref();

  let parsed;
  try {
    parsed = new URL(url);
  } catch (error) {
    fail(`'${url}' is not a URL: ${error.message}`);
  }

  const transport = new StreamableHTTPClientTransport(parsed);
  const client = new Client({ name: 'plugboard-bench-ts', version: '1.0.0' });
  client.onerror = (error) => fail(`client error (${progress}): ${error?.stack ?? error}`);

  await client.connect(transport);

  progress = 'warm-up';
  for (let i = 0; i < warmup; i++)
    await callOnce(client);

  progress = 'sequential';
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
  progress = 'pipelined';
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

  progress = 'closing';
  await transport.terminateSession();
  await client.close();

  if (listenerWarnings > 0)
    process.stderr.write(`ts-http-client: note: Node warned ${listenerWarnings} times of abort listeners piling up on the SDK transport's AbortSignal\n`);

  process.stdout.write(JSON.stringify({
    median_us: percentile(latencies, 50),
    p99_us: percentile(latencies, 99),
    calls_per_sec: calls / seqSeconds,
    pipelined_calls_per_sec: pipelined / pipeSeconds,
    peak_rss_kb: peakRssKb,
  }) + '\n');
}

main().catch((error) => fail(`${progress}: ${error?.stack ?? String(error)}`));

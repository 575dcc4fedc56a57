// Run in a child process: start a scan and hold its lock while waiting on sweeps, until killed.
import { createResmonClient } from "@resmon/api-client";
import { createScanEngine } from "../../src/index.js";
import { plainBackend } from "./plain-backend.js";

const env = process.env;
const client = createResmonClient({ port: Number(env.KIT_PORT), token: String(env.KIT_TOKEN) });
const engine = createScanEngine({
  backend: plainBackend(async () => client),
  dataDir: String(env.SCAN_DATA),
  waitMs: 60_000,
  pollMs: 20,
});
const args = JSON.parse(String(env.SCAN_ARGS));
await engine.start(args);
process.stdout.write("finished\n");
await client.close();

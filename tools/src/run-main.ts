import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Runs `main` when the module at `moduleUrl` is the script node was started with (not when a test
 * imports it): its resolved code becomes the exit code, and a throw is one line on stderr, exit 1.
 */
export function runIfMain(moduleUrl: string, name: string, main: (argv: string[]) => Promise<number>): void {
  if (!process.argv[1] || resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}

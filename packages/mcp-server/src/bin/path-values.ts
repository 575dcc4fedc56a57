/**
 * A path variable's value as a harness or a shell left it, said before anything is looked up. A
 * harness passes its config's values exactly as written, and cmd's `set NAME="C:\a b"` keeps the
 * quotes as part of the value, so three slips reach the server as literal text: quotes around the
 * path, a `%VAR%` or `$VAR` nothing expanded, a leading `~` no shell saw. Each names a path that is
 * not the one meant; doctor warns about each (it does not refuse: such a path can exist).
 */
const PATH_VARIABLES = ["RESMON_PORT_FILE", "RESMON_DB_PATH", "RESMON_STATE_DIR", "RESMON_MCP_SCAN_DATA"];

export function pathValueWarnings(env: Readonly<Record<string, string | undefined>>): string[] {
  const warnings: string[] = [];
  for (const name of PATH_VARIABLES) {
    const value = env[name]?.trim();
    if (!value) continue;
    const unexpanded = /%[A-Za-z_][A-Za-z0-9_]*%|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?/.exec(value)?.[0];
    if (/^(["']).*\1$/s.test(value)) {
      warnings.push(
        `${name} has quotes around its path, and nothing removes them: it names a path with quote characters in it. cmd's \`set ${name}="…"\` keeps them (write \`set "${name}=…"\`); in a harness's config write the path alone`,
      );
    } else if (unexpanded) {
      warnings.push(
        `${name} holds ${unexpanded}, which nothing expanded: a harness passes its config's values as written, so write the full path`,
      );
    } else if (/^~(?=$|[\\/])/.test(value)) {
      warnings.push(
        `${name} starts with ~, which only a shell expands: from a harness's config it is a folder named "~" in the directory the harness starts in, so write the full path`,
      );
    }
  }
  return warnings;
}

import type { ResmonClient } from "@resmon/api-client";
import { classifySettingsKey, SETTING_SINCE, type SettingsGroup } from "@resmon/mcp-contract";
import { notInThisResmon } from "../backend/this-resmon.js";
import type { Handler } from "../context.js";
import { invalidArgument, ToolError } from "../errors.js";
import { markNotReported } from "../shape/reported.js";
import { requireRecord } from "../shape/values.js";

type Value = string | boolean;

// One literal route per group, so every request is checked against resmon's OpenAPI at compile time.
function readGroup(c: ResmonClient, group: SettingsGroup) {
  switch (group) {
    case "ai":
      return c.GET("/api/settings/ai");
    case "assistant":
      return c.GET("/api/settings/assistant");
    case "email":
      return c.GET("/api/settings/email");
    case "embeddings":
      return c.GET("/api/settings/embeddings");
    case "storage":
      return c.GET("/api/settings/storage");
    case "notifications":
      return c.GET("/api/settings/notifications");
  }
}

function writeGroup(c: ResmonClient, group: SettingsGroup, settings: Record<string, Value>) {
  const init = { body: { settings } };
  switch (group) {
    case "ai":
      return c.PUT("/api/settings/ai", init);
    case "assistant":
      return c.PUT("/api/settings/assistant", init);
    case "email":
      return c.PUT("/api/settings/email", init);
    case "embeddings":
      return c.PUT("/api/settings/embeddings", init);
    case "storage":
      return c.PUT("/api/settings/storage", init);
    case "notifications":
      return c.PUT("/api/settings/notifications", init);
  }
}

/**
 * The group's key/value state: embeddings nests its keys under `settings` beside capability data.
 * Anything else is resmon's malformed answer (upstream_error), never an empty group whose every
 * key the caller named would then be refused as unknown.
 */
function stateOf(group: SettingsGroup, body: unknown): Record<string, unknown> {
  const what = `the ${group} settings`;
  return group === "embeddings"
    ? requireRecord(requireRecord(body, what).settings, `${what} (under settings)`)
    : requireRecord(body, what);
}

/**
 * The read after the PUT. The write was sent, so a read-back that fails or cannot be read is said
 * as such: the change may well be in place, and no key is reported as changed to anything.
 */
async function readBack(
  read: () => Promise<unknown>,
  group: SettingsGroup,
  requested: Record<string, Value>,
): Promise<Record<string, unknown>> {
  try {
    return stateOf(group, await read());
  } catch (err) {
    if (!(err instanceof ToolError)) throw err;
    throw new ToolError(
      err.code,
      `resmon accepted the write to the ${group} settings, but reading them back failed, so what changed is not reported (${err.message}) The write is safe to repeat; the resmon app shows the current values.`,
      { ...err.detail, written: true, requested, after: "not_reported" },
      err.unavailable,
    );
  }
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export const update_settings: Handler<"update_settings"> = async (args, { backend }) => {
  // The group is on the allowlist: the schema's enum is SETTINGS_GROUPS.
  const { group, settings: requested } = args;
  // At least one key: the schema refuses an empty map.
  const keys = Object.keys(requested);

  // 1. Credential-shaped names first, before any request: keys are not settings.
  const credentialKeys = keys.filter((k) => classifySettingsKey(k).class === "credential");
  if (credentialKeys.length > 0) {
    throw invalidArgument(
      `${credentialKeys.join(", ")} ${credentialKeys.length === 1 ? "looks" : "look"} like a credential. resmon's keys are not settings: they live in the system keychain and are changed in the resmon app, never through a tool.`,
      { field: "settings", keys: credentialKeys, refused: "credential" },
    );
  }
  // 2. Withheld keys, each by name with its reason, before any request.
  const withheld: Record<string, string> = {};
  for (const k of keys) {
    const c = classifySettingsKey(k);
    if (c.class === "withheld") withheld[k] = c.reason;
  }
  if (Object.keys(withheld).length > 0) {
    const sentences = Object.entries(withheld).map(([k, why]) => `${k} (${why})`);
    throw invalidArgument(
      `These settings are withheld from tools: ${sentences.join("; ")}. Change them in the resmon app.`,
      {
        field: "settings",
        keys: Object.keys(withheld),
        withheld,
        refused: "withheld",
      },
    );
  }

  // 3. The legal key list is what resmon's own GET returns for the group.
  const before = stateOf(group, await backend.call<unknown>((c) => readGroup(c, group)));
  const unknown = keys.filter((k) => !Object.hasOwn(before, k));
  // A newer resmon's key is not the caller's mistake: say which resmon has it.
  const newer = unknown.map((k) => SETTING_SINCE[k]).find((f) => f !== undefined);
  if (newer !== undefined) {
    const resmon = await backend.resmon();
    if (!resmon.has(newer)) {
      const keysOfNewer = unknown.filter((k) => SETTING_SINCE[k] === newer);
      throw notInThisResmon(resmon, { feature: newer, words: `ai setting ${keysOfNewer.join(", ")}` });
    }
  }
  if (unknown.length > 0) {
    throw invalidArgument(
      `${unknown.join(", ")} ${unknown.length === 1 ? "is not a setting" : "are not settings"} of the ${group} group, so nothing was changed. resmon's own settings form would drop ${unknown.length === 1 ? "it" : "them"} silently; this tool refuses instead.`,
      { field: "settings", keys: unknown, refused: "unknown", group_keys: Object.keys(before) },
    );
  }
  const undecided = keys.filter((k) => classifySettingsKey(k).class !== "writable");
  if (undecided.length > 0) {
    throw invalidArgument(
      `${undecided.join(", ")} ${undecided.length === 1 ? "is" : "are"} on neither this server's writable list nor its withheld list (a newer resmon's setting, perhaps), so it is refused until someone decides.`,
      { field: "settings", keys: undecided, refused: "undecided" },
    );
  }

  // 4. Values are strings; a field resmon returns as a JSON boolean takes "true"/"false" only.
  const converted: Record<string, Value> = {};
  for (const k of keys) {
    const value = requested[k];
    if (typeof before[k] === "boolean") {
      if (typeof value === "boolean") converted[k] = value;
      // Exactly "true" or "false" in any case: no trimming, so "true\n" is refused, not guessed at.
      else if (typeof value === "string" && /^(true|false)$/i.test(value)) {
        converted[k] = value.toLowerCase() === "true";
      } else {
        throw invalidArgument(`${k} is a yes/no setting: send "true" or "false".`, {
          field: `settings.${k}`,
          key: k,
        });
      }
    } else if (typeof value === "string") converted[k] = value;
    else throw invalidArgument(`${k} takes a string value.`, { field: `settings.${k}`, key: k });
  }

  await backend.call<unknown>((c) => writeGroup(c, group, converted));
  // 5. The answer is the diff of two real reads, not an echo of the input.
  const after = await readBack(() => backend.call<unknown>((c) => readGroup(c, group)), group, converted);
  const changed: Record<string, { from: unknown; to: unknown }> = {};
  let unchanged = 0;
  // A key only one read carried is not a change to or from null: it is named as not reported.
  const oneSided: string[] = [];
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!Object.hasOwn(before, k) || !Object.hasOwn(after, k)) oneSided.push(k);
    else if (same(before[k], after[k])) unchanged += 1;
    else changed[k] = { from: before[k], to: after[k] };
  }
  const answer = { group, changed, requested: converted, unchanged_key_count: unchanged };
  markNotReported(answer, oneSided);
  return answer;
};

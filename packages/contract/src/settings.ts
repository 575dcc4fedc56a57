/**
 * The settings update_settings may reach. The line (spec, "The settings update_settings may change"):
 * a tool may change what resmon says — which model, which ceilings, what is kept, what is notified —
 * and not where resmon sends things, what it runs, where it writes, what it is told, or whether the
 * user is told how a result was produced.
 */

export const SETTINGS_GROUPS = [
  "ai",
  "assistant",
  "email",
  "embeddings",
  "storage",
  "notifications",
] as const;
export type SettingsGroup = (typeof SETTINGS_GROUPS)[number];

/** The app's own key list for each reachable group (39 keys). */
export const APP_SETTINGS_KEYS: { readonly [G in SettingsGroup]: readonly string[] } = {
  ai: [
    "ai_provider",
    "ai_model",
    "ai_local_model",
    "ai_summary_length",
    "ai_tone",
    "ai_extraction_goals",
    "ai_temperature",
    "ai_show_audit_prefix",
    "ai_custom_base_url",
    "ai_custom_header_prefix",
    "ai_default_models",
    "ai_chain",
    "ai_local_endpoint",
    "ai_cli_path",
    "ai_subscription_doc_cap",
    "ai_effort",
  ],
  assistant: ["assistant_runtime", "assistant_provider", "assistant_model", "assistant_effort"],
  email: ["smtp_server", "smtp_port", "smtp_username", "smtp_from", "smtp_to"],
  embeddings: [
    "embedding_enabled",
    "embedding_provider",
    "embedding_model",
    "embedding_endpoint",
    "embedding_base_url",
    "embedding_batch_size",
    "embedding_dims",
    "embedding_input_limit",
  ],
  storage: ["pdf_policy", "txt_policy", "archive_after_days", "export_directory"],
  notifications: ["notify_manual", "notify_automatic_mode"],
};

const SENDS_KEY_AND_PROMPT = "chooses which provider's host the API key and the prompt are sent to";
const REQUEST_ENDPOINT = "the address those AI requests, with the key and the prompt, are sent to";
const EMBEDDING_DESTINATION = "decides where corpus text is sent to be embedded";
const REPORT_DESTINATION = "decides where routine reports are delivered";
const PROMPT_TEXT =
  "what resmon is told: copied verbatim into the summarization prompt, above the untrusted abstract";

/** The 19 keys refused on the name before any request is built, each with why. */
export const SETTINGS_KEYS_WITHHELD: Readonly<Record<string, string>> = {
  ai_cli_path: "the executable resmon spawns",
  assistant_runtime: "decides whether resmon spawns a process at all",
  ai_provider: SENDS_KEY_AND_PROMPT,
  assistant_provider: SENDS_KEY_AND_PROMPT,
  ai_custom_base_url: REQUEST_ENDPOINT,
  ai_local_endpoint: REQUEST_ENDPOINT,
  ai_custom_header_prefix:
    "names the headers a custom endpoint's requests carry, which is where the key rides",
  ai_chain: "a list of fallback lanes, each naming its own provider",
  embedding_provider: EMBEDDING_DESTINATION,
  embedding_endpoint: EMBEDDING_DESTINATION,
  embedding_base_url: EMBEDDING_DESTINATION,
  smtp_server: REPORT_DESTINATION,
  smtp_port: REPORT_DESTINATION,
  smtp_to: REPORT_DESTINATION,
  export_directory: "decides where resmon writes exported files",
  ai_extraction_goals: PROMPT_TEXT,
  ai_tone: PROMPT_TEXT,
  ai_summary_length: PROMPT_TEXT,
  ai_show_audit_prefix: "decides whether the user is told a summary came from a model, and which model",
};

/** Every key of the six groups that is not withheld: the 20 a tool may change. */
export const SETTINGS_KEYS_WRITABLE: readonly string[] = Object.values(APP_SETTINGS_KEYS)
  .flat()
  .filter((key) => !Object.hasOwn(SETTINGS_KEYS_WITHHELD, key));

/** Words a credential's name carries. A key containing one is refused first, whatever else it is. */
export const CREDENTIAL_WORDS = [
  "key",
  "token",
  "secret",
  "password",
  "passphrase",
  "credential",
  "auth",
] as const;

/** Settings that exist in the app and are deliberately out of reach. */
export const UNREACHABLE_SETTINGS: readonly { name: string; why: string }[] = [
  {
    name: "cloud",
    why: "settings group for cloud backup: where resmon sends a copy of the user's data; not on the group allowlist",
  },
  {
    name: "execution",
    why: "PUT /api/settings/execution is admission control (concurrent runs, fire-queue depth): a decision about the machine, not the research, and it does not take the settings body",
  },
];

export type KeyClass =
  | { class: "writable" }
  | { class: "withheld"; reason: string }
  | { class: "credential"; word: string }
  | { class: "undecided" };

/**
 * Classify any key. The credential check comes first: it answers with the better sentence
 * (keys live in the system keychain and are changed in the app). A key on neither list — one a later
 * app grows — is undecided and refused until someone decides; it never arrives writable.
 */
export function classifySettingsKey(key: string): KeyClass {
  const lowered = key.toLowerCase();
  const word = CREDENTIAL_WORDS.find((w) => lowered.includes(w));
  if (word !== undefined) return { class: "credential", word };
  if (Object.hasOwn(SETTINGS_KEYS_WITHHELD, key)) {
    return { class: "withheld", reason: SETTINGS_KEYS_WITHHELD[key] ?? "" };
  }
  if (SETTINGS_KEYS_WRITABLE.includes(key)) return { class: "writable" };
  return { class: "undecided" };
}

export function isSettingsGroup(x: string): x is SettingsGroup {
  return (SETTINGS_GROUPS as readonly string[]).includes(x);
}

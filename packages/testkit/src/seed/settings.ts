import type { SettingValue } from "../model.js";

/** The six reachable groups and their keys, with the values a fresh resmon answers (booleans where it returns booleans). */
export function defaultSettings(): Record<string, Record<string, SettingValue>> {
  return {
    ai: {
      ai_provider: "anthropic",
      ai_model: "",
      ai_local_model: "",
      ai_summary_length: "",
      ai_tone: "",
      ai_extraction_goals: "",
      ai_temperature: "",
      ai_show_audit_prefix: "",
      ai_custom_base_url: "",
      ai_custom_header_prefix: "",
      ai_default_models: "",
      ai_chain: "",
      ai_local_endpoint: "",
      ai_cli_path: "",
      ai_subscription_doc_cap: "",
      ai_effort: "",
    },
    assistant: {
      assistant_runtime: "claude_cli",
      assistant_provider: "",
      assistant_model: "claude-sonnet-4-5",
      assistant_effort: "high",
    },
    email: { smtp_server: "", smtp_port: "", smtp_username: "", smtp_from: "", smtp_to: "" },
    embeddings: {
      embedding_enabled: "",
      embedding_provider: "",
      embedding_model: "",
      embedding_endpoint: "",
      embedding_base_url: "",
      embedding_batch_size: "",
      embedding_dims: "",
      embedding_input_limit: "",
    },
    storage: { pdf_policy: "", txt_policy: "", archive_after_days: "", export_directory: "" },
    notifications: { notify_manual: true, notify_automatic_mode: "none" },
  };
}

/** Keys resmon's GET returns as JSON booleans. */
export const BOOLEAN_SETTINGS = new Set(["notify_manual"]);

export const SETTINGS_GROUP_NAMES = [
  "ai",
  "assistant",
  "email",
  "embeddings",
  "storage",
  "notifications",
] as const;

/** Routes left out on purpose, listed so the omission is visible and arguable rather than accidental. */
export const EXCLUDED_ROUTES: readonly { route: string; why: string }[] = [
  {
    route: "/api/admin/*",
    why: "Erasing the corpus or app data, factory reset, erasing keys: destructive and irreversible, and no confirmation a tool call can give is enough.",
  },
  {
    route: "PUT /api/credentials/{name}, DELETE /api/credentials/{name}",
    why: "Writing a credential through a tool means the secret passes through a harness. Never.",
  },
  {
    route: "PUT /api/settings/* outside update_settings",
    why: "Settings change only through update_settings, which a person confirms; groups off its allowlist, and the 19 withheld keys inside it, stay out of reach.",
  },
  {
    route: "PUT /api/settings/execution",
    why: "Admission control (how many runs at once, how deep the fire queue) is a decision about the machine, not the research, and the route does not take the settings body.",
  },
  {
    route: "DELETE /api/routines/{routine_id}, DELETE /api/executions/{exec_id}",
    why: "Destructive. Nothing on this surface deletes.",
  },
  {
    route: "/api/service/install, /api/service/uninstall",
    why: "Touches launchd or systemd on the user's machine.",
  },
  {
    route: "GET /api/executions/{exec_id}/progress/stream",
    why: "Server-sent events do not fit a request/response tool surface; poll get_execution.",
  },
  {
    route: "POST /api/lifecycle/check",
    why: "A long corpus-wide job; a tool call that runs for an hour is a trap. A job-handle model would be the way in.",
  },
  {
    route: "POST /api/executions/{exec_id}/restart, POST /api/executions/{exec_id}/cancel",
    why: "Restarting or cancelling a run is a separate decision about a write tool, not taken in contract 1.0.",
  },
];

import { EMBEDDING_PROVIDERS } from "../data/reference.js";
import type { JsonObject, Profile } from "../model.js";
import { type Ctx, detail, intParam, isReply, ok, queryValue, type Reply, type Routes } from "../reply.js";
import { SETTINGS_GROUP_NAMES } from "../seed/settings.js";
import { EMBEDDING_MODEL } from "../vectors.js";

const NAME_ONLY_WARNING =
  "This profile has neither an identifier nor an affiliation, so **every match will be name-only**: resmon can tell you a paper has this name on it and nothing more. Add an ORCID, or an affiliation, to do better.";
const NO_IDENTIFIER_WARNING =
  "This profile has no identifier, so a match can be by affiliation at best: resmon cannot prove a paper is this person's. Add an ORCID to do better.";

function profileRow(p: Profile): JsonObject {
  const hasId = Object.keys(p.identifiers).length > 0;
  return {
    ...p,
    names: p.names.map((n) => ({ ...n })),
    basis_warning: hasId ? null : p.affiliations.length ? NO_IDENTIFIER_WARNING : NAME_ONLY_WARNING,
  };
}

function findProfile(ctx: Ctx): Profile | Reply {
  const id = intParam(ctx.params.profile_id, "profile_id", "path");
  if (isReply(id)) return id;
  const p = id === undefined ? undefined : ctx.backend.store.profiles.get(id);
  return p ?? detail(404, "That profile does not exist.");
}

export function listProfiles(ctx: Ctx): Reply {
  const kind = queryValue(ctx.query, "kind");
  const rows = [...ctx.backend.store.profiles.values()].filter((p) => !kind || p.kind === kind);
  return ok({ profiles: rows.map(profileRow) });
}

export function getProfile(ctx: Ctx): Reply {
  const p = findProfile(ctx);
  return isReply(p) ? p : ok(profileRow(p));
}

export function profileMatches(ctx: Ctx): Reply {
  const p = findProfile(ctx);
  if (isReply(p)) return p;
  const limit = intParam(queryValue(ctx.query, "limit"), "limit", "query");
  if (isReply(limit)) return limit;
  const offset = intParam(queryValue(ctx.query, "offset"), "offset", "query");
  if (isReply(offset)) return offset;
  const store = ctx.backend.store;
  const all = store.matches
    .filter((m) => m.profile_id === p.id)
    .map((m) => ({ m, doc: store.paperById.get(m.document_id) }))
    .sort((a, b) => ((a.doc?.publication_date ?? "") < (b.doc?.publication_date ?? "") ? 1 : -1));
  const byBasis: Record<string, number> = {};
  for (const { m } of all) byBasis[m.basis] = (byBasis[m.basis] ?? 0) + 1;
  const start = Math.max(0, offset ?? 0);
  return ok({
    matches: all.slice(start, start + (limit ?? 50)).map(({ m, doc }) => ({
      document_id: m.document_id,
      basis: m.basis,
      matched_author: m.matched_author,
      evidence: m.evidence,
      first_seen_at: m.first_seen_at,
      title: doc?.title ?? null,
      source_repository: doc?.source_repository ?? null,
      doi: doc?.doi ?? null,
      url: doc?.url ?? null,
      publication_date: doc?.publication_date ?? null,
    })),
    total: all.length,
    by_basis: byBasis,
  });
}

export function createProfile(ctx: Ctx): Reply {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const display = typeof body.display_name === "string" ? body.display_name.trim() : "";
  if (!display) return detail(400, "A profile needs a display name.");
  const kind = typeof body.kind === "string" ? body.kind : "person";
  if (kind !== "person" && kind !== "group") return detail(400, "kind must be 'person' or 'group'.");
  const names = Array.isArray(body.names)
    ? body.names
        .map((n) =>
          typeof n === "object" && n !== null && typeof (n as { value?: unknown }).value === "string"
            ? (n as { value: string }).value
            : null,
        )
        .filter((v): v is string => v !== null)
    : [];
  const identifiers =
    typeof body.identifiers === "object" && body.identifiers !== null ? (body.identifiers as JsonObject) : {};
  const orcid = identifiers.orcid as JsonObject | undefined;
  if (
    orcid !== undefined &&
    (typeof orcid?.value !== "string" || !/^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/.test(orcid.value))
  ) {
    return detail(400, "That ORCID is not in the form 0000-0000-0000-0000.");
  }
  const strs = (x: unknown) => (Array.isArray(x) ? x.map(String) : []);
  const store = ctx.backend.store;
  const id = store.next.profile++;
  const now = new Date().toISOString().slice(0, 19).replace("T", " ");
  const profile: Profile = {
    id,
    kind,
    display_name: display,
    names: (names.length ? names : [display]).map((value) => ({ value, script: "latin" })),
    identifiers,
    affiliations: strs(body.affiliations),
    field_hints: strs(body.field_hints),
    notes: typeof body.notes === "string" ? body.notes : null,
    created_at: now,
    updated_at: now,
  };
  store.profiles.set(id, profile);
  return ok(profileRow(profile), 201);
}

export function watchdog(ctx: Ctx): Reply {
  // resmon's /api/watchdog declares no query parameters: muted findings are counted, not listed.
  const all = ctx.backend.store.findings;
  const shown = all.filter((f) => !f.muted);
  const count = (s: string) => all.filter((f) => !f.muted && f.severity === s).length;
  return ok({
    checked_at: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    findings: shown.map((f) => ({ ...f })),
    counts: {
      broken: count("broken"),
      unusual: count("unusual"),
      advice: count("advice"),
      muted: all.filter((f) => f.muted).length,
      alarms: count("broken") + count("unusual"),
    },
    not_enough_data: [
      {
        scope: { type: "source", id: "doaj" },
        reason: "2 runs on record; a baseline needs 5.",
        runs_recorded: 2,
        runs_needed: 5,
      },
    ],
    watching: { sources: 8, routines: ctx.backend.store.routines.size },
    thresholds: {
      consecutive_errors: 3,
      consecutive_zeros: 4,
      min_baseline_runs: 5,
      flatline_runs: 5,
      overdue_cadence_multiple: 3,
      overdue_floor_days: 1.0,
      cadence_lag_multiple: 2.0,
      min_runs_for_cadence: 3,
    },
    sufficient: true,
    cannot_judge: [
      "Whether a source's silence means the field went quiet or the source stopped answering, until it has a baseline of 5 runs.",
      "Anything about papers resmon never collected.",
    ],
  });
}

export function getSettings(group: (typeof SETTINGS_GROUP_NAMES)[number]) {
  return (ctx: Ctx): Reply => {
    const values = { ...(ctx.backend.store.settings[group] ?? {}) };
    if (group !== "embeddings") return ok(values);
    return ok(embeddingSettings(ctx, values));
  };
}

function embeddingSettings(ctx: Ctx, values: Record<string, unknown>): JsonObject {
  const b = ctx.backend;
  const ready = b.embeddingState === "ready";
  const model = ready ? EMBEDDING_MODEL : null;
  const embedded = ready ? (b.embeddedOnly?.size ?? b.store.embedded.size) : 0;
  const extension =
    b.embeddingState === "extension_unavailable"
      ? { extension: null, reason: "The sqlite-vec extension could not be loaded in this backend." }
      : { extension: "sqlite-vec (testkit)", reason: null };
  return {
    settings: values as JsonObject,
    providers: PROVIDERS,
    lane: ready ? { provider: "local", model } : null,
    capability: {
      available: ready,
      extension: extension.extension,
      reason: extension.reason,
      model,
      indexed: embedded,
    },
    status: {
      run: {
        running: false,
        model,
        processed: embedded,
        total: b.store.papers.length,
        skipped_no_text: 0,
        started_at: null,
        finished_at: null,
        cancelled: false,
        reason: null,
      },
      coverage: { embedded, total: b.store.papers.length, model },
      extension,
      index: { model, dims: ready ? 64 : null, rows: embedded },
    },
  };
}

const PROVIDERS = EMBEDDING_PROVIDERS as JsonObject[];

export function putSettings(group: (typeof SETTINGS_GROUP_NAMES)[number]) {
  return (ctx: Ctx): Reply => {
    const body = (ctx.body ?? {}) as { settings?: unknown };
    if (body.settings === undefined) {
      return detail(422, [
        { type: "missing", loc: ["body", "settings"], msg: "Field required", input: body },
      ]);
    }
    if (typeof body.settings !== "object" || body.settings === null || Array.isArray(body.settings)) {
      return detail(422, [
        {
          type: "dict_type",
          loc: ["body", "settings"],
          msg: "Input should be a valid dictionary",
          input: body.settings,
        },
      ]);
    }
    const incoming = body.settings as Record<string, unknown>;
    const stored = ctx.backend.store.settings[group];
    if (!stored) return detail(404, "Not Found");
    if (group === "notifications" && "notify_automatic_mode" in incoming) {
      const mode = incoming.notify_automatic_mode;
      if (mode !== "all" && mode !== "selected" && mode !== "none") {
        return detail(400, "notify_automatic_mode must be 'all', 'selected', or 'none'");
      }
    }
    // Keys of the group are stored; anything else is silently ignored, as resmon does.
    for (const [key, value] of Object.entries(incoming)) {
      if (!(key in stored)) continue;
      stored[key] =
        typeof stored[key] === "boolean"
          ? value === true || String(value).toLowerCase() === "true"
          : String(value);
    }
    return ok({ success: true });
  };
}

/** Watch profiles, the watchdog and the settings groups. */
export const profiles: Routes = {
  "GET /api/watchdog": watchdog,
  "GET /api/profiles": listProfiles,
  "GET /api/profiles/{profile_id}": getProfile,
  "GET /api/profiles/{profile_id}/matches": profileMatches,
  "POST /api/profiles": createProfile,
  ...Object.fromEntries(
    SETTINGS_GROUP_NAMES.flatMap((g) => [
      [`GET /api/settings/${g}`, getSettings(g)],
      [`PUT /api/settings/${g}`, putSettings(g)],
    ]),
  ),
};

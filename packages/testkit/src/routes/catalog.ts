import { CATALOG, CREDENTIAL_NAMES } from "../data/reference.js";
import { type Ctx, ok, type Reply, type Routes } from "../reply.js";

const DATE_RANGE_NOTICE = {
  scope: "beyond_default_start",
  applies_when: "the window starts more than default_start_days before its end",
  text: "resmon reads this source's preprints for a date range itself, newest first, for at most 45 seconds a search; a long window may not be read back to its start.",
};

/** The captured catalog, plus medRxiv and the spec's result_order / constraints / notices. */
export function catalogRows(): Record<string, unknown>[] {
  const rows = CATALOG.map((row) => ({ ...row }));
  const biorxiv = rows.find((r) => r.slug === "biorxiv");
  if (biorxiv && !rows.some((r) => r.slug === "medrxiv")) {
    rows.push({
      ...biorxiv,
      slug: "medrxiv",
      name: "medRxiv",
      description: "Preprints in the medical and health sciences",
      subject_coverage: "Medicine / Health sciences",
      endpoint: "https://api.biorxiv.org/details/medrxiv",
      client_module: "api_medrxiv.py",
      website: "https://www.medrxiv.org",
    });
    rows.sort((a, b) => String(a.slug).localeCompare(String(b.slug)));
  }
  return rows.map((r) => {
    const ranged = r.slug === "biorxiv" || r.slug === "medrxiv";
    return {
      ...r,
      result_order: ranged ? "newest_first" : "relevance",
      constraints: { default_start_days: ranged ? 3 : null },
      notices: ranged ? [DATE_RANGE_NOTICE] : [],
    };
  });
}

export function repositoriesCatalog(_ctx: Ctx): Reply {
  return ok(catalogRows());
}

/** Presence only, never a value. Two keys are present so both states are exercised. */
export function credentials(_ctx: Ctx): Reply {
  const present = new Set(["openai_api_key", "semantic_scholar_api_key"]);
  const creds: Record<string, unknown> = {};
  for (const name of CREDENTIAL_NAMES) {
    creds[name] = present.has(name)
      ? { present: true, status: "present" }
      : { present: false, status: "absent" };
  }
  return ok({ keyring_responsive: true, credentials: creds });
}

/** The repository catalog and the credential names. */
export const catalog: Routes = {
  "GET /api/repositories/catalog": repositoriesCatalog,
  "GET /api/credentials": credentials,
};

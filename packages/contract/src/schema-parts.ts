import { z } from "zod";

/** Shared input and output pieces, so every tool states a limit, an id or a date the same way. */

export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 25;

/** A page size above the ceiling is clamped to it, not refused: the answer says so (limit_clamped). */
export const limitArg = () =>
  z
    .int()
    .min(1)
    .default(DEFAULT_LIMIT)
    .transform((n) => Math.min(n, MAX_LIMIT));

export const offsetArg = () => z.int().min(0).default(0);

/** An id argument: its name (routine_id, exec_id, doc_id, profile_id) says what it is. */
export const idArg = () => z.int().min(1);

export const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** date_from / date_to: the words say the format (the pattern is checked, not sent), the name which end. */
export const dateArg = () => z.string().regex(ISO_DATE).optional().describe("YYYY-MM-DD.");

/** A canonical lowercase UUID4 (what crypto.randomUUID() makes). */
export const UUID4_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The only shape resmon accepts as expected_runtime_id. */
export const RUNTIME_ID_PATTERN = UUID4_PATTERN;
export const expectedRuntimeIdArg = () =>
  z.string().regex(RUNTIME_ID_PATTERN).optional().describe("identity.runtime_id from health.");

export const sourcesArg = () => z.array(z.string().min(1)).describe("Slugs from list_sources.");

// Output pieces: permissive (looseObject), because the server passes backend rows through.
export const str = () => z.string().nullable().optional();
export const int = () => z.int().nullable().optional();

export const identityShape = () =>
  z.looseObject({
    contract_version: z.int(),
    runtime_id: z.string(),
    schema_version: z.int().nullable(),
    corpus_id: z.string().nullable(),
    build_id: z.string().nullable(),
  });

/** The compact paper shape every paper list uses; `id` is the corpus document id. */
export const paperShape = () =>
  z.looseObject({
    id: z.int(),
    title: str(),
    authors: str(),
    date: str(),
    source: str(),
    doi: str(),
    url: str(),
  });

/** The answer keys resmon did not report (never filled in with a null, zero or empty value). */
export const notReportedShape = () => z.array(z.string()).optional();

export const EXECUTION_STATUSES = ["running", "completed", "failed", "cancelled", "interrupted"] as const;

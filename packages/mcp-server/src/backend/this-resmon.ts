import {
  compareVersions,
  FEATURE_SINCE,
  LINES_OF_RESMON,
  lineOfVersion,
  NOT_IN_THIS_RESMON,
  newerRoutes,
  newestLine,
  OLDEST_RESMON,
  type ResmonFeature,
  type ResmonLine,
  type RouteRef,
  routeShape,
  routeSince,
  toolNeeds,
  VERSION_GAP_CODE,
} from "@resmon/mcp-contract";
import { ToolError } from "../errors.js";

/**
 * What the resmon this server reached serves: its version (from health), its runtime id, the
 * routes of its own `/openapi.json` (read once per runtime id) and the source slugs of its catalog
 * (read once per runtime id, when a call first names one). A backend whose route list could not be
 * read is placed by its version in the contract's version table instead.
 */
export interface ThisResmon {
  readonly version: string | null;
  readonly runtimeId: string | null;
  /** The newest line whose surface it serves. */
  readonly line: ResmonLine;
  /** openapi: its own route list; version_table: placed by its version; assumed: it said neither, so the current surface is assumed and each request answers for itself. */
  readonly routesFrom: "openapi" | "version_table" | "assumed";
  serves(route: RouteRef): boolean;
  has(feature: ResmonFeature): boolean;
  /** The tool answers here: every route it must have is served and every feature it needs is there. */
  answers(tool: { name: string; routes: readonly RouteRef[] }): boolean;
}

const CURRENT_LINE = LINES_OF_RESMON[LINES_OF_RESMON.length - 1] as ResmonLine;

function lineAtLeast(line: ResmonLine, needed: ResmonLine): boolean {
  return compareVersions(line, needed) >= 0;
}

/** The route shapes an OpenAPI document declares ("GET /api/routines/{}"), or null when it is not one. */
export function routesOfOpenapi(doc: unknown): Set<string> | null {
  if (!doc || typeof doc !== "object") return null;
  const paths = (doc as Record<string, unknown>).paths;
  if (!paths || typeof paths !== "object" || Array.isArray(paths)) return null;
  const out = new Set<string>();
  for (const [path, item] of Object.entries(paths as Record<string, unknown>)) {
    if (!item || typeof item !== "object") continue;
    for (const method of Object.keys(item)) {
      if (["get", "post", "put", "delete", "patch"].includes(method)) out.add(routeShape(method, path));
    }
  }
  return out;
}

/** The newest line all of whose newer routes a route set holds (1.7 when it has watchdog but not profiles). */
function lineOfRoutes(routes: ReadonlySet<string>): ResmonLine {
  const lines: ResmonLine[] = [];
  for (const [shape, since] of newerRoutes()) if (routes.has(shape)) lines.push(since);
  return newestLine(lines);
}

export function thisResmon(
  health: unknown,
  runtimeId: string | null,
  openapi: Set<string> | null,
): ThisResmon {
  const raw = health && typeof health === "object" ? (health as Record<string, unknown>).version : undefined;
  const version = typeof raw === "string" && raw.trim() ? raw.trim() : null;
  // resmon's 1.7 work still reported "1.6.1": its route list places it, not the string.
  const routesFrom = openapi ? "openapi" : version ? "version_table" : "assumed";
  const line = openapi ? lineOfRoutes(openapi) : version ? lineOfVersion(version) : CURRENT_LINE;
  const serves = (route: RouteRef) =>
    openapi ? openapi.has(routeShape(route.method, route.path)) : lineAtLeast(line, routeSince(route));
  const has = (feature: ResmonFeature) => lineAtLeast(line, FEATURE_SINCE[feature]);
  return {
    version,
    runtimeId,
    line,
    routesFrom,
    serves,
    has,
    answers: (tool) => {
      const first = tool.routes[0];
      return lineAtLeast(line, toolNeeds(tool)) && (first === undefined || serves(first));
    },
  };
}

function versionWords(resmon: ThisResmon): string {
  return resmon.version ? `resmon ${resmon.version}` : "This resmon (it reports no version)";
}

/** The version gap (contract 1.2): conflict, detail.reason not_in_this_resmon. */
export function notInThisResmon(
  resmon: ThisResmon,
  what: { route: RouteRef } | { feature: ResmonFeature; words: string } | { tool: string; needs: ResmonLine },
): ToolError {
  const needs =
    "route" in what ? routeSince(what.route) : "feature" in what ? FEATURE_SINCE[what.feature] : what.needs;
  const lacks =
    "route" in what
      ? `does not serve ${what.route.method} ${what.route.path}`
      : "feature" in what
        ? `has no ${what.words}`
        : `cannot answer ${what.tool}`;
  const detail: Record<string, unknown> = {
    reason: NOT_IN_THIS_RESMON,
    resmon_version: resmon.version,
    needs,
  };
  if ("route" in what) detail.route = `${what.route.method} ${what.route.path}`;
  else if ("feature" in what) detail.feature = what.feature;
  else detail.tool = what.tool;
  const newer = needs === OLDEST_RESMON ? "a newer resmon" : `resmon ${needs} or newer`;
  return new ToolError(
    VERSION_GAP_CODE,
    `${versionWords(resmon)} ${lacks}: that needs ${newer}. Nothing was asked of it; updating the app brings it.`,
    detail,
  );
}

/**
 * Before a tool that needs more than resmon 1.6 does anything: refuse on a resmon that cannot
 * answer it, naming what it lacks, with no request sent to a route it does not serve. Tools that
 * answer on 1.6 learn this resmon with their first request instead (the guard in the adapter).
 */
export async function requireTool(
  backend: { resmon(): Promise<ThisResmon> },
  tool: { name: string; routes: readonly RouteRef[] },
): Promise<void> {
  const needs = toolNeeds(tool);
  if (needs === OLDEST_RESMON) return;
  const resmon = await backend.resmon();
  if (resmon.answers(tool)) return;
  const first = tool.routes[0];
  throw first && !resmon.serves(first)
    ? notInThisResmon(resmon, { route: first })
    : notInThisResmon(resmon, { tool: tool.name, needs });
}

/** A feature one call needs (an argument, a format): refused as the version gap when this resmon lacks it. */
export async function requireFeature(
  backend: { resmon(): Promise<ThisResmon> },
  feature: ResmonFeature,
  words: string,
): Promise<ThisResmon> {
  const resmon = await backend.resmon();
  if (!resmon.has(feature)) throw notInThisResmon(resmon, { feature, words });
  return resmon;
}

/**
 * Source slugs resmon does not know are the caller's mistake, said before any request that would
 * use them (resmon answers an empty search, or admits a sweep that fails later): named with the
 * field and the slugs this resmon's catalog holds (read once per runtime id).
 */
export async function requireKnownSources(
  backend: { sourceSlugs(): Promise<string[] | null> },
  field: string,
  slugs: readonly string[] | undefined,
): Promise<void> {
  if (slugs === undefined || slugs.length === 0) return;
  const known = await backend.sourceSlugs();
  // A catalog resmon would not give (it answered, but not with its list) cannot judge a slug.
  if (known === null) return;
  const unknown = [...new Set(slugs.filter((s) => !known.includes(s)))];
  if (unknown.length === 0) return;
  const quoted = unknown.map((s) => `'${s}'`).join(", ");
  throw new ToolError(
    "invalid_argument",
    `${field}: resmon knows no source ${quoted}. Its sources are: ${known.join(", ")} (list_sources describes each).`,
    { field, unknown, known },
  );
}

import type { Paper, Profile, ProfileMatch } from "../model.js";

export function profiles(): Profile[] {
  const at = "2026-02-01 05:37:00";
  return [
    {
      id: 1,
      kind: "person",
      display_name: "Ada Lovelace",
      names: [
        { value: "Ada Lovelace", script: "Latin" },
        { value: "A. Lovelace", script: "Latin" },
      ],
      identifiers: { orcid: { value: "0000-0002-1825-0097", cited: "https://example.org/orcid-page" } },
      affiliations: ["Analytical Engine Group"],
      field_hints: ["machine learning"],
      notes: "Watched since the corpus was started.",
      created_at: at,
      updated_at: at,
    },
    {
      id: 2,
      kind: "person",
      display_name: "Alan Turing",
      names: [{ value: "Alan Turing", script: "Latin" }],
      identifiers: {},
      affiliations: ["University of Manchester"],
      field_hints: ["computation"],
      notes: null,
      created_at: "2026-02-01 06:14:00",
      updated_at: "2026-02-01 06:14:00",
    },
    {
      id: 3,
      kind: "person",
      display_name: "Grace Hopper",
      names: [{ value: "Grace Hopper", script: "Latin" }],
      identifiers: {},
      affiliations: [],
      field_hints: [],
      notes: null,
      created_at: "2026-02-01 06:51:00",
      updated_at: "2026-02-01 06:51:00",
    },
    {
      id: 4,
      kind: "group",
      display_name: "Turbulence reading group",
      names: [{ value: "Turbulence reading group", script: "Latin" }],
      identifiers: {},
      affiliations: [],
      field_hints: [],
      notes: null,
      created_at: "2026-02-01 07:28:00",
      updated_at: "2026-02-01 07:28:00",
    },
  ];
}

export function matches(papers: Paper[]): ProfileMatch[] {
  const list: ProfileMatch[] = [
    {
      profile_id: 1,
      document_id: 8,
      basis: "name_only",
      matched_author: "Ada Lovelace",
      evidence: null,
      first_seen_at: "2026-02-01 06:51:00",
    },
    {
      profile_id: 1,
      document_id: 1,
      basis: "identifier",
      matched_author: "Ada Lovelace",
      evidence: "ORCID 0000-0002-1825-0097 on the source record",
      first_seen_at: "2026-02-01 05:37:00",
    },
    {
      profile_id: 1,
      document_id: 2,
      basis: "affiliation",
      matched_author: "Ada Lovelace",
      evidence: "Affiliation on the record: Analytical Engine Group",
      first_seen_at: "2026-02-01 06:14:00",
    },
    {
      profile_id: 2,
      document_id: 1,
      basis: "affiliation",
      matched_author: "Alan Turing",
      evidence: "Affiliation on the record: University of Manchester",
      first_seen_at: "2026-02-01 05:37:00",
    },
  ];
  const bases = ["identifier", "affiliation", "name_only"] as const;
  let i = 0;
  for (const p of papers) {
    if (p.id <= 8) continue;
    const authors = p.authors.split(", ");
    for (const [profileId, name] of [
      [1, "Ada Lovelace"],
      [2, "Alan Turing"],
      [3, "Grace Hopper"],
    ] as const) {
      if (!authors.includes(name)) continue;
      const basis =
        profileId === 1
          ? (bases[i++ % 3] ?? "name_only")
          : profileId === 2
            ? i++ % 2
              ? "affiliation"
              : "name_only"
            : "name_only";
      const evidence =
        basis === "identifier"
          ? "ORCID 0000-0002-1825-0097 on the source record"
          : basis === "affiliation"
            ? `Affiliation on the record: ${profileId === 1 ? "Analytical Engine Group" : "University of Manchester"}`
            : null;
      list.push({
        profile_id: profileId,
        document_id: p.id,
        basis,
        matched_author: name,
        evidence,
        first_seen_at: p.first_seen_at,
      });
    }
  }
  return list;
}

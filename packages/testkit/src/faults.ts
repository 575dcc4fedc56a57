export type Fault =
  | { kind: "delay"; ms: number }
  /** `chunkBytes`: the body sent without a Content-Length (chunked), this many bytes a write. */
  | { kind: "status"; status: number; body?: unknown; chunkBytes?: number }
  /** An answer worked out from the request's JSON body (one route answering each format its own way). */
  | { kind: "answer"; answer: (body: unknown) => { status: number; body: unknown } }
  | { kind: "malformed_json" }
  | { kind: "drop_connection" }
  | { kind: "hang" };

interface FaultRule {
  route: string;
  method: string | undefined;
  fault: Fault;
  remaining: number | undefined;
}

/** Faults keyed by route template (or "*"), optionally by method and for a number of requests. */
export class FaultTable {
  private rules: FaultRule[] = [];

  set(route: string, fault: Fault | null, opts: { method?: string; times?: number } = {}): void {
    const method = opts.method?.toUpperCase();
    this.rules = this.rules.filter((r) => !(r.route === route && r.method === method));
    if (fault) this.rules.push({ route, method, fault, remaining: opts.times });
  }

  clear(): void {
    this.rules = [];
  }

  /** The fault for this request, if any, consuming one use of it. */
  take(route: string | null, method: string): Fault | null {
    const rule =
      this.rules.find((r) => r.route === route && (!r.method || r.method === method)) ??
      this.rules.find((r) => r.route === "*" && (!r.method || r.method === method));
    if (!rule) return null;
    if (rule.remaining !== undefined) {
      rule.remaining--;
      if (rule.remaining <= 0) this.rules = this.rules.filter((r) => r !== rule);
    }
    return rule.fault;
  }
}

import { requireFeature } from "../backend/this-resmon.js";
import type { Handler } from "../context.js";
import { invalidArgument } from "../errors.js";

function asText(data: unknown): string {
  return typeof data === "string" ? data : JSON.stringify(data);
}

export const export_references: Handler<"export_references"> = async (args, { backend, progress }) => {
  const { format, exec_id: execId, doc_ids: docIds } = args;
  // resmon renders an export in one request and says nothing while it does: the steps are what there is to say.
  const step = (done: number, total: number, message: string) =>
    progress?.({ stage: "export", done, total, message });
  if ((execId === undefined) === (docIds === undefined || docIds.length === 0)) {
    throw invalidArgument("Pass exactly one of exec_id or doc_ids (a non-empty list).", {
      field: execId === undefined ? "doc_ids" : "exec_id",
    });
  }
  if (format === "json") await requireFeature(backend, "json_export", "JSON reference export");
  if (execId !== undefined && !(await backend.resmon()).has("export_by_execution")) {
    // Before 2.3 the export route takes document ids only; the run's own export route renders the
    // same papers with the same renderer (bibtex, ris, csv), so this answer loses nothing.
    step(0, 1, `resmon is exporting run ${execId} as ${format}.`);
    const data = await backend.call((c) =>
      c.GET("/api/executions/{exec_id}/references", {
        params: { path: { exec_id: execId }, query: { format } },
      }),
    );
    return { format, exec_id: execId, text: asText(data) };
  }
  if (execId !== undefined) {
    // The spec's route for both forms is the export route, which drops an execution id it does not
    // know without a word: the run is read first, so an unknown one is not_found, never an empty export.
    step(0, 2, `Reading run ${execId}.`);
    await backend.call((c) => c.GET("/api/executions/{exec_id}", { params: { path: { exec_id: execId } } }));
    step(1, 2, `resmon is exporting run ${execId} as ${format}.`);
    const data = await backend.call((c) =>
      c.POST("/api/export/references", { body: { execution_ids: [execId], format } }),
    );
    return { format, exec_id: execId, text: asText(data) };
  }
  const ids = docIds ?? []; // not reached without ids: the check above
  step(0, 1, `resmon is exporting ${ids.length} paper${ids.length === 1 ? "" : "s"} as ${format}.`);
  const data = await backend.call((c) =>
    c.POST("/api/export/references", { body: { document_ids: ids, format } }),
  );
  return {
    format,
    doc_ids: ids,
    text: asText(data),
    note: "resmon leaves out any id it does not hold, without saying which.",
  };
};

/**
 * This server never asks the client for input, so the SDK's elicitation-answer validator (Ajv) is
 * never needed: one that refuses stands in (serve.ts hands it to the SDK's Server), and
 * start-up does not build it.
 */
export const NO_ELICITATION_VALIDATOR = {
  getValidator: (): never => {
    throw new Error("resmon-mcp elicits nothing, so it validates no elicitation schema.");
  },
};

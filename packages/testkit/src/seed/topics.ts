/**
 * Topics give the corpus real structure: papers on one topic share words, so search and similarity
 * mean something. Every title pattern carries all of its topic's `words` (the seed finds a topic's
 * papers by them, and a keyword search for them finds the topic); `{x}` is filled from `fillers`.
 */
export interface Topic {
  words: readonly string[];
  field: string;
  patterns: readonly string[];
  fillers: readonly string[];
  /** One sentence of the abstract, about the filler. */
  abstract: string;
}

export const TOPICS: readonly Topic[] = [
  {
    words: ["diffusion", "models", "turbulence"],
    field: "physics.flu-dyn",
    patterns: [
      "Diffusion models for {x} turbulence",
      "Reconstructing {x} turbulence with diffusion models",
      "Score-based diffusion models as closures for {x} turbulence",
      "Super-resolving {x} turbulence with latent diffusion models",
      "Can diffusion models forecast {x} turbulence?",
      "Uncertainty in diffusion models of {x} turbulence",
      "Physics-informed diffusion models for {x} turbulence",
    ],
    fillers: [
      "wall-bounded",
      "isotropic",
      "rotating",
      "stratified",
      "two-dimensional",
      "atmospheric",
      "compressible",
      "channel-flow",
      "boundary-layer",
      "homogeneous shear",
      "convective",
      "jet-flow",
    ],
    abstract:
      "We train a denoising model on {x} flow snapshots and compare its statistics with direct numerical simulation.",
  },
  {
    words: ["graph", "neural", "network"],
    field: "cs.LG",
    patterns: [
      "Message passing graph neural networks for {x}",
      "On the expressive power of graph neural networks for {x}",
      "Sparse attention in graph neural networks for {x}",
      "Equivariant graph neural networks for {x}",
      "Over-smoothing in deep graph neural networks: evidence from {x}",
      "Scaling graph neural networks to billion-edge {x}",
      "Self-supervised pretraining of graph neural networks for {x}",
    ],
    fillers: [
      "molecular property prediction",
      "traffic forecasting",
      "link prediction in citation graphs",
      "mesh-based physics simulation",
      "fraud detection",
      "recommender systems",
      "power grid stability",
      "particle tracking",
      "drug-target interaction",
      "protein interface prediction",
      "code analysis",
      "weather forecasting",
    ],
    abstract: "Nodes exchange messages along edges; we evaluate the architecture on {x}.",
  },
  {
    words: ["protein", "folding", "structure"],
    field: "q-bio.BM",
    patterns: [
      "Protein folding and structure prediction for {x}",
      "Structure-aware protein folding of {x}",
      "Protein folding pathways and the structure of {x}",
      "Learned contact maps for protein folding: the structure of {x}",
      "Protein folding intermediates resolved by structure prediction in {x}",
      "Coevolution signals in protein folding and structure of {x}",
      "Protein folding kinetics and the native structure of {x}",
    ],
    fillers: [
      "membrane proteins",
      "intrinsically disordered regions",
      "antibody loops",
      "designed binders",
      "multi-domain enzymes",
      "viral capsids",
      "coiled coils",
      "transporters",
      "amyloid fibrils",
      "ion channels",
      "ribosomal proteins",
      "de novo miniproteins",
    ],
    abstract: "We compare predicted and experimental contacts for {x}.",
  },
  {
    words: ["crispr", "gene", "editing"],
    field: "q-bio.GN",
    patterns: [
      "CRISPR gene editing in {x}",
      "Off-target effects of CRISPR gene editing in {x}",
      "Base editors versus CRISPR-Cas9 gene editing in {x}",
      "Guide RNA design for CRISPR gene editing of {x}",
      "Delivering CRISPR gene editing to {x}",
      "Prime editing compared with CRISPR gene editing in {x}",
      "Long-term safety of CRISPR gene editing in {x}",
    ],
    fillers: [
      "human hematopoietic stem cells",
      "crop plants",
      "primary T cells",
      "zebrafish embryos",
      "liver organoids",
      "the retina",
      "muscle tissue",
      "mouse models of sickle cell disease",
      "cardiomyocytes",
      "neurons derived from stem cells",
      "wheat",
      "non-human primates",
    ],
    abstract: "We measure editing efficiency and off-target activity in {x}.",
  },
  {
    words: ["climate", "ocean", "warming"],
    field: "physics.ao-ph",
    patterns: [
      "Ocean heat uptake in {x} under climate warming",
      "Climate warming and ocean circulation in {x}",
      "Marine heatwaves in {x}: ocean responses to climate warming",
      "Ocean stratification in {x} as climate warming accelerates",
      "Attributing ocean warming in {x} to climate change",
      "Oxygen loss in {x}: ocean deoxygenation under climate warming",
      "Sea-level rise from ocean warming in {x} under climate scenarios",
    ],
    fillers: [
      "the North Atlantic",
      "the Southern Ocean",
      "the tropical Pacific",
      "the Arctic",
      "coastal upwelling systems",
      "the Indian Ocean",
      "the Mediterranean",
      "the subpolar gyre",
      "the Gulf Stream",
      "the Labrador Sea",
      "the Bay of Bengal",
      "the Kuroshio extension",
    ],
    abstract: "Using reanalysis and model ensembles we track heat content in {x}.",
  },
  {
    words: ["quantum", "error", "correction"],
    field: "quant-ph",
    patterns: [
      "Quantum error correction with {x}",
      "Fast decoders for quantum error correction with {x}",
      "Below-threshold quantum error correction using {x}",
      "Resource estimates for quantum error correction with {x}",
      "Leakage and correlated noise in quantum error correction with {x}",
      "Experimental quantum error correction on {x}",
      "Erasure conversion for quantum error correction in {x}",
    ],
    fillers: [
      "surface codes",
      "bosonic cat qubits",
      "color codes",
      "low-density parity-check codes",
      "neutral-atom arrays",
      "trapped ions",
      "superconducting qubits",
      "Floquet codes",
      "spin qubits",
      "photonic cluster states",
      "fluxonium qubits",
      "hypergraph product codes",
    ],
    abstract: "We simulate logical error rates for {x} under circuit-level noise.",
  },
  {
    words: ["language", "model", "alignment"],
    field: "cs.CL",
    patterns: [
      "Language model alignment with {x}",
      "Reward hacking in language model alignment via {x}",
      "A survey of language model alignment through {x}",
      "Scalable oversight for language model alignment using {x}",
      "Measuring language model alignment under {x}",
      "Sycophancy as a failure of language model alignment under {x}",
      "Evaluating language model alignment with {x}",
    ],
    fillers: [
      "human preference data",
      "constitutional principles",
      "direct preference optimisation",
      "debate",
      "synthetic feedback",
      "red-teaming",
      "process supervision",
      "distribution shift",
      "reward model ensembles",
      "multilingual prompts",
      "long-horizon agent tasks",
      "adversarial users",
    ],
    abstract: "We fine-tune models with {x} and evaluate them on held-out instructions.",
  },
  {
    words: ["retraction", "research", "integrity"],
    field: "cs.DL",
    patterns: [
      "Retraction notices and research integrity in {x}",
      "What retraction data reveal about research integrity in {x}",
      "Research integrity after retraction: citations in {x}",
      "Image manipulation, retraction and research integrity in {x}",
      "Paper mills, retraction and research integrity in {x}",
      "Slow retraction and the cost to research integrity in {x}",
      "Retraction Watch data and research integrity in {x}",
    ],
    fillers: [
      "biomedicine",
      "materials science",
      "psychology",
      "oncology",
      "computer science",
      "clinical trials",
      "chemistry",
      "nutrition research",
      "economics",
      "ecology",
      "surgery",
      "genomics",
    ],
    abstract: "We follow retracted articles and the papers that cite them in {x}.",
  },
  {
    words: ["vaccine", "immune", "response"],
    field: "q-bio.CB",
    patterns: [
      "Immune response to {x} vaccine boosters",
      "Durability of the immune response after {x} vaccine doses",
      "T-cell immune response to {x} vaccine candidates",
      "Mucosal immune response to {x} vaccines",
      "Predicting {x} vaccine immune response in older adults",
      "Heterologous {x} vaccine schedules and the immune response",
      "Correlates of protection: immune response to {x} vaccine trials",
    ],
    fillers: [
      "mRNA",
      "adjuvanted",
      "intranasal",
      "malaria",
      "influenza",
      "RSV",
      "measles",
      "tuberculosis",
      "dengue",
      "HPV",
      "pneumococcal",
      "rotavirus",
    ],
    abstract: "Antibody titres and cellular markers were followed in a cohort given {x} vaccine doses.",
  },
  {
    words: ["battery", "lithium", "electrolyte"],
    field: "cond-mat.mtrl-sci",
    patterns: [
      "{x} electrolyte design for lithium metal battery anodes",
      "Solid electrolyte interphases in lithium battery cells with {x}",
      "Lithium dendrite growth through {x} electrolyte in a solid-state battery",
      "Fast-charging lithium-ion battery cells with {x} electrolyte",
      "Degradation of {x} electrolyte in lithium battery cycling",
      "Operando imaging of {x} electrolyte in lithium battery cathodes",
      "Thermal runaway and {x} electrolyte in lithium battery packs",
    ],
    fillers: [
      "fluorinated",
      "sulfide",
      "polymer",
      "garnet",
      "high-concentration",
      "ionic-liquid",
      "localized high-concentration",
      "water-in-salt",
      "borate",
      "ether-based",
      "carbonate-free",
      "nitrile",
    ],
    abstract: "Cells with {x} electrolyte were cycled and their interphases imaged.",
  },
];

/** The topic at an index (wrapping), so callers need no undefined check. */
export function topicAt(index: number): Topic {
  const topic = TOPICS[index % TOPICS.length];
  if (!topic) throw new Error(`no topic ${index}`);
  return topic;
}

/** Endings any title can take; the empty ones keep most titles plain. */
export const SUFFIXES = [
  "",
  "",
  "",
  "",
  " at scale",
  ": a systematic comparison",
  " with calibrated uncertainty",
  ": a benchmark",
] as const;

/** A second sentence for abstracts, picked by paper id, so papers with one title still read apart. */
export const FINDINGS = [
  "",
  "We release code and data.",
  "The approach outperforms strong baselines on three public benchmarks.",
  "Ablations show where the gains come from.",
  "Results are stable across random seeds and hardware.",
  "Limitations and failure cases are discussed in detail.",
  "A preregistered analysis plan was followed throughout.",
] as const;

/** A title from its topic's pattern and filler; the first letter is always upper case. */
export function titleOf(pattern: string, filler: string, suffix: string): string {
  const title = `${pattern.replace("{x}", filler)}${suffix}`;
  return title.charAt(0).toUpperCase() + title.slice(1);
}

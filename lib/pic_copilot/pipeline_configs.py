"""The names of the pipeline configurations (stdlib only: the KLayout-side benchmark driver
imports this too). What each one does is described in :mod:`pic_copilot.agents.pipeline`."""

#: configurations of the copilot pipeline (Request.config); "full" is the product
PIPELINE_CONFIGS = ("full", "zero-shot", "icl-rag", "no-tailored-rag", "no-multi-agent", "no-exec-feedback",
                    "no-exploration")
#: what the benchmark runs: the pipeline configurations and "oracle" (the reference solutions)
BENCH_CONFIGS = ("oracle",) + PIPELINE_CONFIGS

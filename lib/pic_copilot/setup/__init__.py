"""Set-up (run by ``scripts/setup.sh``): :mod:`.assets` fetches and verifies the model files,
:mod:`.runtime` builds and verifies the embedded LLM runtime. stdlib only.
"""

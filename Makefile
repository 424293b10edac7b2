# Convenience targets; the README's two commands are scripts/run.sh and scripts/test.sh.
.PHONY: setup run test oracle
setup:
	bash scripts/setup.sh
run:
	bash scripts/run.sh
test:
	bash scripts/test.sh
oracle:
	klayout -b -r benchmark/bench.py -rd config=oracle

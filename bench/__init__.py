"""Benchmarks: each script prints its figures against its targets. Run from the repository root as
`python -m bench.<name>`."""

import os

# Commands are timed as an installed tool runs: with its compiled bytecode (__pycache__) in place. Some sandboxes
# set PYTHONDONTWRITEBYTECODE, which would make every timed run compile the whole package again.
COMMAND_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

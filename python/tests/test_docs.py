"""docs/python.md's complete example runs as written."""

import os
import re

from cli import ROOT


def test_the_complete_example_runs(capsys):
    with open(os.path.join(ROOT, "docs", "python.md")) as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    assert len(blocks) == 1
    exec(compile(blocks[0], "docs/python.md", "exec"), {})
    out = capsys.readouterr().out
    assert "force 5.000 N" in out and "(6, 2, 13)" in out

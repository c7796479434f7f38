"""What the command-line tests share: a small photo of a Twenty One sheet."""

from __future__ import annotations

import pytest
from support import synth

from rnwprint.games import GAMES


@pytest.fixture(scope="module")
def photo(tmp_path_factory) -> bytes:
    g = GAMES["twenty-one"]
    return synth.make_photo(g.build(g.default_variant, "es", "a4"), {"R1C1": 4, "R2C1": 7}, 5, 4.0)

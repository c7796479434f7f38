"""Old import paths (to remove): modules that moved keep their old names, as the very same
module objects, while code written against the old layout is updated. ARCHITECTURE.md lists
them; an alias rather than a file at the old path lets git follow each move."""

from __future__ import annotations

import importlib
import importlib.machinery
import sys

MOVED = {
    "rnwprint.audit.entries": "rnwprint.core.entries",
    "rnwprint.audit.report": "rnwprint.core.report",
    "rnwprint.audit.run": "rnwprint.app.audit",
    "rnwprint.errors": "rnwprint.core.errors",
    "rnwprint.sheet": "rnwprint.core.sheet",
    # the test-photo generator left the runtime package: importable only with tests/ on sys.path
    "rnwprint.photo.synth": "support.synth",
    "rnwprint.photo.synth_ink": "support.synth_ink",
    "rnwprint.photo.synth_pencil": "support.synth_pencil",
    "rnwprint.photo.synth_scene": "support.synth_scene",
    "rnwprint.audit.template": "rnwprint.app.blank",
    "rnwprint.cli_tower": "rnwprint.games.roll_to_the_top.commands",  # `template`: rnwprint.cli_template
    "rnwprint.games.tower_sim": "rnwprint.games.roll_to_the_top.sim",
    "rnwprint.games.rolling_log": "rnwprint.games.rolling.log",
    "rnwprint.games.rolling_replay": "rnwprint.games.rolling.replay",
    "rnwprint.games.rolling_rules": "rnwprint.games.rolling.rules",
    "rnwprint.geo.tower": "rnwprint.games.roll_to_the_top.tower",
    "rnwprint.geo.tower_code": "rnwprint.games.roll_to_the_top.tower_code",
    "rnwprint.geo.tower_input": "rnwprint.games.roll_to_the_top.tower_input",
}


class _Alias:
    """A meta path finder and loader (importlib.abc's protocols, without importing it: slow)."""

    def find_spec(self, name, path=None, target=None):
        return importlib.machinery.ModuleSpec(name, self) if name in MOVED else None

    def create_module(self, spec):
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module) -> None:
        pass  # the module at its new path is already loaded


if not any(isinstance(finder, _Alias) for finder in sys.meta_path):
    sys.meta_path.insert(0, _Alias())  # before any finder that may know the old path (an editable install of another checkout)

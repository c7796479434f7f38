"""The project's folders, for tests in any subfolder of tests/."""

import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent  # the checkout: README.md, templates/, assets/

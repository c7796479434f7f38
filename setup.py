"""Packs the project's top-level data folders into the wheel, inside the package:
templates/ as rnwprint/templates/ and assets/maps/ as rnwprint/maps/ (rnwprint/data.py finds
them there). Everything else is declared in pyproject.toml."""

from setuptools import find_namespace_packages, setup

setup(
    packages=find_namespace_packages(include=["rnwprint*"]) + ["rnwprint.templates", "rnwprint.maps"],
    package_dir={"rnwprint.templates": "templates", "rnwprint.maps": "assets/maps"},
    package_data={"rnwprint": ["assets/**/*", "locale/*"], "rnwprint.templates": ["*"], "rnwprint.maps": ["*"]},
)

"""Old import paths (to remove): the typed-in format and the Report moved to rnwprint.core,
the audit and blank-file use cases to rnwprint.app (see rnwprint._moved). annotate.py (a
report's violations drawn over its sheet) is still here."""

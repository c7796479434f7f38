"""Old import paths only (to remove): the typed-in format and the Report moved to rnwprint.core,
the audit and blank-file use cases to rnwprint.app (see rnwprint._moved)."""

"""The contract every layer shares, importing nothing else of rnwprint but the words
(rnwprint.locale, itself importing nothing of rnwprint): the Sheet in millimetres with its
items and cells and the Identity its QR code carries (sheet.py), the one error type a user
can cause (errors.py), what was written on a sheet and the typed-in file format, read and
written (entries.py), and an audit's Report (report.py)."""

"""The use cases, called by the command line (and the coming web page): print sheets
(sheets.py), write a blank typed-in file (blank.py), audit files (audit.py), read photos
(read.py). Each returns its result, or the RnwError saying what is wrong with the input, as
a value (`as_value`); many files at once give (file, outcome) pairs in input order (batch.py).
Callers parse their own input and show the results; the work is done here and below."""

from __future__ import annotations

import functools
from typing import TypeVar

from rnwprint.core.errors import RnwError

T = TypeVar("T")


def as_value(func):
    """The use case `func` returning the RnwError it would raise."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except RnwError as e:
            return e
    return wrapper


def unwrap(outcome: T | RnwError) -> T:
    """The result, or the error raised again (the command line prints it as one line)."""
    if isinstance(outcome, RnwError):
        raise outcome
    return outcome

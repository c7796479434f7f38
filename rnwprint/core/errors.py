"""The one error type a user can cause; the CLI prints it as one line and exits 2."""


class RnwError(Exception):
    """A problem with the user's input, options or environment.

    `where` names the file, key or option at fault; the message says why and,
    where possible, how to fix it.
    """

    def __init__(self, message: str, where: str | None = None):
        super().__init__(message)
        self.where = where
        self.message = message

    def __str__(self) -> str:
        return f"{printable(self.where)}: {self.message}" if self.where else self.message


def printable(text: str) -> str:
    """`text` (a file's name) with what would break a one-line message escaped: a newline, a
    control character, a byte no UTF-8 spells."""
    return text if text.isprintable() else "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)

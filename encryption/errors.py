"""The payload store's error, apart so that the command line can name it without the SDK."""


class PayloadStoreError(RuntimeError):
    """A stored payload is missing, damaged or named by a malformed reference."""

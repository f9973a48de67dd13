"""A model file with a syntax error, for the recorder's error messages."""


def build(B, T)
    return None
